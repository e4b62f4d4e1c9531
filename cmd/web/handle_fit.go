package main

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/fit"
)

// handleFit is POST /api/v1/fit: train an algorithm on the posted data and
// answer JSON. Every problem with the request is a 400 whose "error" says
// what is wrong and what is allowed.
func handleFit() echo.HandlerFunc {
	return func(c echo.Context) error {
		req, err := fit.Decode(c.Request().Body)
		if err != nil {
			return err
		}
		resp, err := fit.Run(req)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, resp)
	}
}
