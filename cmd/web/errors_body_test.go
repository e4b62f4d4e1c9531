package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
)

// uploadRoutes has a form route like the CSV upload, which reports a
// failure to read the form in its own words, as the handlers do.
func uploadRoutes(ran *bool) func(e *echo.Echo) {
	return func(e *echo.Echo) {
		read := func(c echo.Context) error {
			*ran = true
			if _, err := c.MultipartForm(); err != nil {
				return bad(errors.New("no points found"))
			}
			return c.String(http.StatusOK, "ok")
		}
		e.POST("/lessons/demo/data", read, limitUpload(maxUpload))
		e.POST("/api/v1/fit", func(c echo.Context) error {
			*ran = true
			if _, err := io.ReadAll(c.Request().Body); err != nil {
				return bad(fmt.Errorf("reading the body: %v", err)) // as fit.Decode does
			}
			return c.String(http.StatusOK, "ok")
		}, limitUpload(1<<10))
	}
}

// csvForm is a multipart form with a file field of n bytes.
func csvForm(n int) (body []byte, contentType string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "points.csv")
	fw.Write(bytes.Repeat([]byte("0.5,1,1\n"), n/8+1))
	mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

func TestErrUploadTooLarge(t *testing.T) {
	var ran bool
	logger, _ := logBuffer()
	e := newMWEcho(logger, uploadRoutes(&ran))
	small, smallType := csvForm(1000)
	big, bigType := csvForm(2 << 20)
	const want = "the upload is larger than 1 MiB; send at most 500 points"

	tests := []struct {
		name, target, contentType string
		body                      []byte
		chunked                   bool // unknown length
		want                      int
		msg                       string
		runs                      bool
	}{
		{"small", "/lessons/demo/data", smallType, small, false, 200, "ok", true},
		{"declared too large", "/lessons/demo/data", bigType, big, false, 413, want, false},
		{"chunked too large", "/lessons/demo/data", bigType, big, true, 413, want, true},
		{"api declared", "/api/v1/fit", "application/json", big[:2000], false, 413, `{"error":"the request body is larger than 1 KiB"}`, false},
		{"api chunked", "/api/v1/fit", "application/json", big[:2000], true, 413, `{"error":"the request body is larger than 1 KiB"}`, true},
	}
	for _, tt := range tests {
		ran = false
		req := httptest.NewRequest(http.MethodPost, tt.target, bytes.NewReader(tt.body))
		req.Header.Set("Content-Type", tt.contentType)
		if tt.chunked {
			req.ContentLength = -1
			req.Body = io.NopCloser(io.MultiReader(bytes.NewReader(tt.body)))
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != tt.want || !strings.Contains(rec.Body.String(), tt.msg) || ran != tt.runs {
			t.Errorf("%s: %d %.200q (handler ran: %v), want %d with %q (ran: %v)", tt.name, rec.Code, rec.Body, ran, tt.want, tt.msg, tt.runs)
		}
	}

	// Over a real connection the client reads the 413 instead of a reset.
	srv := httptest.NewServer(e)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/lessons/demo/data", bigType, bytes.NewReader(big))
	if err != nil {
		t.Fatalf("POST 2 MiB: %v, want a 413", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), want) {
		t.Errorf("POST 2 MiB over HTTP = %d %.200q, want 413 %q", resp.StatusCode, b, want)
	}
}

// TestErrSlowBody sends half a body and stalls until the server's
// ReadTimeout: the answer is a 408 that names no address and quotes no
// network error.
func TestErrSlowBody(t *testing.T) {
	var ran bool
	logger, _ := logBuffer()
	srv := httptest.NewUnstartedServer(newMWEcho(logger, uploadRoutes(&ran)))
	srv.Config.ReadTimeout = 300 * time.Millisecond
	srv.Start()
	defer srv.Close()

	for _, target := range []string{"/lessons/demo/data", "/api/v1/fit"} {
		t.Run(target, func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			body, contentType := csvForm(200)
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: margin\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", target, contentType, len(body))
			conn.Write(body[:len(body)/2]) // and stall
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("reading the response: %v", err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(b), msgSlowBody) {
				t.Errorf("stalled body = %d %.300q, want 408 %q", resp.StatusCode, b, msgSlowBody)
			}
			for _, leak := range []string{"127.0.0.1", "i/o timeout", "read tcp", "tcp"} {
				if strings.Contains(string(b), leak) {
					t.Errorf("the 408 says %q: %.300q", leak, b)
				}
			}
		})
	}
}
