package main

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/margin-edu/margin/internal/fit"
)

// handleGram is POST /api/v1/gram: the Gram matrix Kᵢⱼ = k(xᵢ, xⱼ) of the
// posted points under the posted function, kernel or not, with its
// eigenvalues and whether it is positive semi-definite (fit.Gram). Bad
// requests are a 400 whose "error" names the field and what is allowed;
// a matrix that overflows is a 422; a computation stopped by fitTimeout
// or a departed client returns the context's error (checked between the
// matrix and its eigenvalues, which cannot be interrupted). The answer,
// up to about 80 MB at n = 2000, is streamed rather than built in memory.
func handleGram() echo.HandlerFunc {
	return func(c echo.Context) error {
		req, err := fit.DecodeGram(c.Request().Body)
		if err != nil {
			return err
		}
		ctx, cancel := context.WithTimeout(c.Request().Context(), fitTimeout)
		defer cancel()
		resp, err := fit.Gram(ctx, req)
		if err != nil {
			return err
		}
		w := c.Response()
		w.Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
		w.WriteHeader(http.StatusOK)
		return resp.WriteJSON(w)
	}
}
