package main

import (
	"context"
	_ "embed"
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
		// Decode reads the body a token at a time and refuses it at the
		// first value past a limit, so a refused body is never built.
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

// handleGram is POST /api/v1/gram: the Gram matrix Kᵢⱼ = k(xᵢ, xⱼ) of the
// posted points under the posted function, kernel or not, with its
// eigenvalues and whether it is positive semi-definite (fit.Gram). Bad
// requests are a 400 whose "error" names the field and what is allowed;
// a matrix that overflows is a 422; a computation stopped by fitTimeout
// or a departed client returns the context's error (checked between the
// matrix and its eigenvalues, which cannot be interrupted). The answer,
// up to about 20 MB at n = fit.MaxGramN = 1000 (about 1 s of CPU), is
// streamed rather than built in memory.
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

// openAPIPath serves the OpenAPI 3 description of the JSON APIs.
const openAPIPath = "/api/v1/openapi.json"

// openAPI describes POST /api/v1/fit and POST /api/v1/gram, written by
// hand beside docs/api.md; TestOpenAPI holds it to the handlers.
//
//go:embed openapi.json
var openAPI []byte

// handleOpenAPI is GET /api/v1/openapi.json.
func handleOpenAPI() echo.HandlerFunc {
	return func(c echo.Context) error {
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, openAPI)
	}
}
