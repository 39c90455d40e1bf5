// Command pause is the pod sandbox ("pause") program of the test cluster: it holds the pod's
// namespaces open, reaps the orphans re-parented to it (it is PID 1 of the pod), and exits 0 on
// SIGINT or SIGTERM. Built static here (no registry to pull registry.k8s.io/pause from).
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for s := range signals {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			var status syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
	}
}
