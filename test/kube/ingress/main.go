// Command ingress is the test cluster's Ingress controller, run as a host process: it watches
// networking.k8s.io/v1 Ingresses of its IngressClass (or without a class while that class is the
// default), their Services and EndpointSlices, and proxies HTTP on --listen by Host header and
// path (Exact and Prefix path types, exact and wildcard hosts, the default backend) to the ready
// pod addresses, round-robin. A connection refused by one endpoint (a pod going away) is retried
// on the next: no request is sent twice, none fails while another endpoint is ready. It writes the
// node address into each Ingress's status.
//
// Why our own: Traefik v3, the first choice, cannot be built here (the Go module proxy refuses a
// dozen of its ACME DNS-provider dependencies); this program needs only client-go.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the cluster")
	listen := flag.String("listen", ":8080", "address serving Ingress traffic")
	health := flag.String("health", "127.0.0.1:0", "address serving /healthz (200 once the caches are synced)")
	className := flag.String("ingress-class", "lectern", "the IngressClass this controller serves")
	controller := flag.String("controller", "lectern.local/ingress", "the IngressClass spec.controller value")
	statusIP := flag.String("status-ip", "", "address written to the status of the Ingresses served (empty: none)")
	flag.Parse()

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		log.Fatalf("kubeconfig: %v", err)
	}
	client := kubernetes.NewForConfigOrDie(config)
	factory := informers.NewSharedInformerFactory(client, 0)
	l := listers{
		ingresses: factory.Networking().V1().Ingresses().Lister(),
		classes:   factory.Networking().V1().IngressClasses().Lister(),
		services:  factory.Core().V1().Services().Lister(),
		slices:    factory.Discovery().V1().EndpointSlices().Lister(),
	}
	var current atomic.Pointer[table]
	current.Store(&table{})
	counters := map[string]*atomic.Uint64{}
	changed := make(chan struct{}, 1)
	notify := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { signalChange(changed) },
		UpdateFunc: func(any, any) { signalChange(changed) },
		DeleteFunc: func(any) { signalChange(changed) },
	}
	for _, informer := range []cache.SharedIndexInformer{
		factory.Networking().V1().Ingresses().Informer(),
		factory.Networking().V1().IngressClasses().Informer(),
		factory.Core().V1().Services().Informer(),
		factory.Discovery().V1().EndpointSlices().Informer(),
	} {
		if _, err := informer.AddEventHandler(notify); err != nil {
			log.Fatalf("informer: %v", err)
		}
	}
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer cancel()
	factory.Start(ctx.Done())
	var synced atomic.Bool
	go func() {
		factory.WaitForCacheSync(ctx.Done())
		synced.Store(true)
		signalChange(changed)
	}()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-changed:
			}
			if !synced.Load() {
				continue
			}
			t, err := buildTable(l, *className, *controller, counters)
			if err != nil {
				log.Printf("routing table: %v", err)
				continue
			}
			current.Store(t)
			if *statusIP != "" {
				updateStatus(ctx, client, l, *className, *controller, *statusIP)
			}
		}
	}()

	healthListener, err := net.Listen("tcp", *health)
	if err != nil {
		log.Fatalf("health listener: %v", err)
	}
	fmt.Fprintf(os.Stderr, "health on %s\n", healthListener.Addr())
	go func() {
		_ = http.Serve(healthListener, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			if !synced.Load() {
				http.Error(w, "caches not synced", http.StatusServiceUnavailable)
				return
			}
			fmt.Fprint(w, "ok")
		}))
	}()
	server := &http.Server{Addr: *listen, Handler: newProxy(&current), ReadHeaderTimeout: 30 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		_ = server.Shutdown(shutdown)
	}()
	log.Printf("serving Ingress class %q on %s", *className, *listen)
	if err := server.ListenAndServe(); err != nil && err != http.ErrServerClosed {
		log.Fatalf("listen: %v", err)
	}
}

func signalChange(changed chan struct{}) {
	select {
	case changed <- struct{}{}:
	default:
	}
}

func joinHostPort(host string, port int32) string {
	return net.JoinHostPort(host, strconv.Itoa(int(port)))
}
