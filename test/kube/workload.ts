/**
 * The sample workload of cluster.kube.test.ts: the echo program (test/kube/images/echo) as a
 * Deployment of one pod (CPU request 20m, so a little load is a high utilization for the HPA),
 * a ClusterIP Service on port 80 and an Ingress for `host`. The image is imported, never pulled.
 */
export function echoWorkload(host: string): object {
  const labels = { app: 'echo' };
  return {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'echo', labels },
        spec: {
          replicas: 1,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              terminationGracePeriodSeconds: 5,
              containers: [
                {
                  name: 'echo',
                  image: 'lectern.local/echo:1',
                  imagePullPolicy: 'IfNotPresent',
                  ports: [{ name: 'http', containerPort: 8080 }],
                  env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
                  readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 2 },
                  resources: { requests: { cpu: '20m', memory: '16Mi' }, limits: { cpu: '500m', memory: '64Mi' } },
                  securityContext: {
                    readOnlyRootFilesystem: true,
                    runAsNonRoot: true,
                    allowPrivilegeEscalation: false,
                  },
                },
              ],
            },
          },
        },
      },
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'echo', labels },
        spec: { selector: labels, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
      },
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name: 'echo', labels },
        spec: {
          rules: [
            {
              host,
              http: {
                paths: [
                  { path: '/', pathType: 'Prefix', backend: { service: { name: 'echo', port: { number: 80 } } } },
                ],
              },
            },
          ],
        },
      },
    ],
  };
}
