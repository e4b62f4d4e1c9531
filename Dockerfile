# Margin: a static binary on a distroless base, run as a non-root user.
FROM golang:1.25-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /margin ./cmd/web

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /margin /margin
USER nonroot:nonroot
EXPOSE 8080
# distroless has no shell or curl: a static busybox wget is the probe.
COPY --from=busybox:1.36-musl /bin/wget /bin/wget
HEALTHCHECK --interval=10s --timeout=2s --retries=3 CMD ["/bin/wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["/margin", "-addr", ":8080"]
