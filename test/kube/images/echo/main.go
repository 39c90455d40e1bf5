// Command echo is the test cluster's sample workload: an HTTP server on $PORT (default 8080).
//
//	GET /        -> "echo <pod name> <path>" (the pod name from $POD_NAME, else the host name)
//	GET /burn?ms=N -> spins the CPU for N ms (default 200) so the HPA sees load, then answers "burnt"
//	GET /healthz -> "ok"
//
// It exits on SIGTERM. Built static here and imported into the cluster's containerd.
package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"time"
)

func main() {
	name := os.Getenv("POD_NAME")
	if name == "" {
		name, _ = os.Hostname()
	}
	port := os.Getenv("PORT")
	if port == "" {
		port = "8080"
	}
	http.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") })
	http.HandleFunc("/burn", func(w http.ResponseWriter, r *http.Request) {
		ms, err := strconv.Atoi(r.URL.Query().Get("ms"))
		if err != nil || ms <= 0 || ms > 5000 {
			ms = 200
		}
		until := time.Now().Add(time.Duration(ms) * time.Millisecond)
		x := 0
		for time.Now().Before(until) {
			for i := 0; i < 10000; i++ {
				x += i
			}
		}
		fmt.Fprintf(w, "burnt %d", x%2)
	})
	client := &http.Client{Timeout: 5 * time.Second}
	http.HandleFunc("/fetch", func(w http.ResponseWriter, r *http.Request) {
		res, err := client.Get(r.URL.Query().Get("url"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		fmt.Fprintf(w, "%d %s", res.StatusCode, body)
	})
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "echo %s %s", name, r.URL.Path) })
	if err := http.ListenAndServe(":"+port, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
