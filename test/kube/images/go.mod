module lectern.local/kubeimages

go 1.22
