package main

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/fit"
)

// fitTimeout caps one fit. The limits keep every allowed request under
// 2 s of CPU on an idle machine; the timeout is the backstop for a busy one.
// A client that leaves cancels the request context, which stops the fit.
const fitTimeout = 10 * time.Second

// handleFit is POST /api/v1/fit: train an algorithm on the posted data and
// answer JSON. Every problem with the request is a 400 whose "error" says
// what is wrong and what is allowed; numbers that overflow are a 422; a
// fit stopped by the timeout or a departed client returns the context's
// error.
func handleFit() echo.HandlerFunc {
	return func(c echo.Context) error {
		req, err := fit.Decode(c.Request().Body)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(c.Request().Context(), fitTimeout)
		defer cancel()
		resp, err := fit.Run(ctx, req)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, resp)
	}
}
