package main

import (
	"sort"
	"strings"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	networkinglisters "k8s.io/client-go/listers/networking/v1"
)

// route is one Ingress path: requests whose host and path match go to the ready endpoints.
type route struct {
	host      string // exact host, "*.suffix" for a wildcard, "" for any
	path      string
	exact     bool
	endpoints []string // host:port of ready endpoints, sorted
	counter   *atomic.Uint64
	source    string // namespace/ingress, for logs
}

// table is an immutable routing table, rebuilt on every change of an Ingress, Service or
// EndpointSlice and swapped in atomically.
type table struct {
	routes []route // most specific first
}

type listers struct {
	ingresses networkinglisters.IngressLister
	classes   networkinglisters.IngressClassLister
	services  corelisters.ServiceLister
	slices    discoverylisters.EndpointSliceLister
}

// ours reports whether the Ingress is for this controller: its class names our IngressClass,
// or it names none and our IngressClass is the cluster's default.
func ours(ing *networkingv1.Ingress, l listers, className, controller string) bool {
	name := ing.Spec.IngressClassName
	if name == nil {
		class, err := l.classes.Get(className)
		return err == nil && class.Annotations[networkingv1.AnnotationIsDefaultIngressClass] == "true"
	}
	if *name != className {
		return false
	}
	class, err := l.classes.Get(className)
	return err == nil && class.Spec.Controller == controller
}

func buildTable(l listers, className, controller string, counters map[string]*atomic.Uint64) (*table, error) {
	ingresses, err := l.ingresses.List(labels.Everything())
	if err != nil {
		return nil, err
	}
	var routes []route
	for _, ing := range ingresses {
		if !ours(ing, l, className, controller) {
			continue
		}
		source := ing.Namespace + "/" + ing.Name
		add := func(host, path string, pathType *networkingv1.PathType, backend *networkingv1.IngressBackend) {
			if backend == nil || backend.Service == nil {
				return
			}
			key := source + "|" + host + "|" + path
			counter := counters[key]
			if counter == nil {
				counter = &atomic.Uint64{}
				counters[key] = counter
			}
			exact := pathType != nil && *pathType == networkingv1.PathTypeExact
			routes = append(routes, route{host, path, exact, endpointsOf(l, ing.Namespace, backend.Service), counter, source})
		}
		if ing.Spec.DefaultBackend != nil {
			add("", "/", nil, ing.Spec.DefaultBackend)
		}
		for _, rule := range ing.Spec.Rules {
			if rule.HTTP == nil {
				continue
			}
			for _, p := range rule.HTTP.Paths {
				path := p.Path
				if path == "" {
					path = "/"
				}
				add(strings.ToLower(rule.Host), path, p.PathType, &p.Backend)
			}
		}
	}
	// Exact hosts before wildcards before any-host; longer paths first; Exact before Prefix.
	sort.SliceStable(routes, func(i, j int) bool {
		a, b := routes[i], routes[j]
		if hostRank(a.host) != hostRank(b.host) {
			return hostRank(a.host) < hostRank(b.host)
		}
		if len(a.path) != len(b.path) {
			return len(a.path) > len(b.path)
		}
		return a.exact && !b.exact
	})
	return &table{routes}, nil
}

func hostRank(host string) int {
	switch {
	case host == "":
		return 2
	case strings.HasPrefix(host, "*."):
		return 1
	default:
		return 0
	}
}

// endpointsOf lists the ready endpoints (host:port) of a Service's port, from its EndpointSlices.
func endpointsOf(l listers, namespace string, backend *networkingv1.IngressServiceBackend) []string {
	svc, err := l.services.Services(namespace).Get(backend.Name)
	if err != nil {
		return nil
	}
	var port *corev1.ServicePort
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		if (backend.Port.Name != "" && p.Name == backend.Port.Name) || (backend.Port.Name == "" && p.Port == backend.Port.Number) {
			port = p
		}
	}
	if port == nil {
		return nil
	}
	selector := labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: backend.Name})
	slices, err := l.slices.EndpointSlices(namespace).List(selector)
	if err != nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, slice := range slices {
		if slice.AddressType != discoveryv1.AddressTypeIPv4 {
			continue
		}
		var target int32
		for _, sp := range slice.Ports {
			if sp.Port != nil && (sp.Name == nil && port.Name == "" || sp.Name != nil && *sp.Name == port.Name) {
				target = *sp.Port
			}
		}
		if target == 0 {
			continue
		}
		for _, ep := range slice.Endpoints {
			// Ready is false for a pod that is not ready or is terminating: never route to those.
			if ep.Conditions.Ready != nil && !*ep.Conditions.Ready {
				continue
			}
			for _, addr := range ep.Addresses {
				hp := joinHostPort(addr, target)
				if !seen[hp] {
					seen[hp] = true
					out = append(out, hp)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// match finds the route for a request's host (without port, lower case) and path.
func (t *table) match(host, path string) *route {
	for i := range t.routes {
		r := &t.routes[i]
		if !hostMatches(r.host, host) {
			continue
		}
		if r.exact {
			if path == r.path {
				return r
			}
			continue
		}
		if prefixMatches(r.path, path) {
			return r
		}
	}
	return nil
}

func hostMatches(pattern, host string) bool {
	switch {
	case pattern == "":
		return true
	case strings.HasPrefix(pattern, "*."):
		suffix := pattern[1:]
		return strings.HasSuffix(host, suffix) && !strings.Contains(strings.TrimSuffix(host, suffix), ".")
	default:
		return pattern == host
	}
}

// prefixMatches is the Prefix path type: element-wise, so /foo matches /foo and /foo/bar, not /foobar.
func prefixMatches(prefix, path string) bool {
	prefix = strings.TrimSuffix(prefix, "/")
	if prefix == "" {
		return true
	}
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}
