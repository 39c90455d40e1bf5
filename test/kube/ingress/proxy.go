package main

import (
	"context"
	"errors"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"strings"
	"sync/atomic"
	"time"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"
)

type endpointKey struct{}

// retryingTransport sends a request to the endpoint chosen by the proxy and, when that endpoint
// refuses the connection (nothing was sent), to the next ready ones in turn.
type retryingTransport struct {
	base *http.Transport
}

func (t retryingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	endpoints, _ := req.Context().Value(endpointKey{}).([]string)
	var lastErr error
	for i, endpoint := range endpoints {
		attempt := req
		if i > 0 {
			attempt = req.Clone(req.Context())
		}
		attempt.URL.Host = endpoint
		res, err := t.base.RoundTrip(attempt)
		if err == nil {
			return res, nil
		}
		lastErr = err
		var opErr *net.OpError
		if !errors.As(err, &opErr) || opErr.Op != "dial" {
			return nil, err
		}
	}
	if lastErr == nil {
		lastErr = errors.New("no ready endpoint")
	}
	return nil, lastErr
}

func newProxy(current *atomic.Pointer[table]) http.Handler {
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.Out.URL.Scheme = "http"
			r.Out.Host = r.In.Host
			r.SetXForwarded()
		},
		Transport: retryingTransport{base: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 3 * time.Second}).DialContext,
			MaxIdleConnsPerHost: 64,
			IdleConnTimeout:     30 * time.Second,
		}},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			log.Printf("%s %s%s: %v", r.Method, r.Host, r.URL.Path, err)
			http.Error(w, "bad gateway", http.StatusBadGateway)
		},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.ToLower(r.Host)
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		route := current.Load().match(host, r.URL.Path)
		if route == nil {
			http.Error(w, "no Ingress rule matches", http.StatusNotFound)
			return
		}
		n := len(route.endpoints)
		if n == 0 {
			http.Error(w, "no ready endpoint", http.StatusServiceUnavailable)
			return
		}
		// Round-robin start, then the others in order for retries.
		start := int(route.counter.Add(1) % uint64(n))
		order := append(append([]string{}, route.endpoints[start:]...), route.endpoints[:start]...)
		proxy.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), endpointKey{}, order)))
	})
}

// updateStatus writes the node address into the load-balancer status of the Ingresses served.
func updateStatus(ctx context.Context, client kubernetes.Interface, l listers, className, controller, ip string) {
	ingresses, err := l.ingresses.List(labels.Everything())
	if err != nil {
		return
	}
	for _, ing := range ingresses {
		if !ours(ing, l, className, controller) {
			continue
		}
		lb := ing.Status.LoadBalancer.Ingress
		if len(lb) == 1 && lb[0].IP == ip {
			continue
		}
		updated := ing.DeepCopy()
		updated.Status.LoadBalancer.Ingress = []networkingv1.IngressLoadBalancerIngress{{IP: ip}}
		if _, err := client.NetworkingV1().Ingresses(ing.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
			log.Printf("status of %s/%s: %v", ing.Namespace, ing.Name, err)
		}
	}
}
