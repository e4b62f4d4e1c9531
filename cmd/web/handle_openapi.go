package main

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

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
