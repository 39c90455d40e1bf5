import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The test cluster's certificates, made with the machine's `openssl` (ECDSA P-256: fast to make,
 * accepted by every component), and the kubeconfigs that use them. One cluster CA signs the
 * serving and client certificates; a second CA, the front proxy's, signs the certificate the API
 * server presents to aggregated API servers (metrics-server), as kubeadm lays them out.
 */
export interface ClusterPki {
  readonly dir: string;
  readonly caCert: string;
  readonly caKey: string;
  readonly frontProxyCaCert: string;
  /** Service-account token signing key pair. */
  readonly saKey: string;
  readonly saPub: string;
  /** `<dir>/<name>.crt` and `<dir>/<name>.key` for each client or server name below. */
  cert(name: CertName): { cert: string; key: string };
}

export type CertName =
  | 'apiserver'
  | 'apiserver-kubelet-client'
  | 'front-proxy-client'
  | 'admin'
  | 'controller-manager'
  | 'scheduler'
  | 'kubelet'
  | 'kube-proxy';

/** The API server's in-cluster address: the first address of the service range. */
export const serviceRange = '10.96.0.0/16';
export const apiServiceIp = '10.96.0.1';

export function makePki(dir: string, nodeName: string, nodeIp: string): ClusterPki {
  mkdirSync(dir, { recursive: true });
  const path = (name: string) => join(dir, name);
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const makeCa = (name: string, cn: string) =>
    openssl([
      'req',
      '-x509',
      ...newKey,
      '-keyout',
      path(`${name}.key`),
      '-out',
      path(`${name}.crt`),
      '-subj',
      `/CN=${cn}`,
      '-days',
      '3650',
    ]);
  makeCa('ca', 'lectern-kube-ca');
  makeCa('front-proxy-ca', 'lectern-kube-front-proxy-ca');

  const sign = (name: string, subject: string, ca: string, usages: string, sans: string[] = []) => {
    const ext = [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      `extendedKeyUsage=${usages}`,
      ...(sans.length > 0 ? [`subjectAltName=${sans.join(',')}`] : []),
    ].join('\n');
    writeFileSync(path(`${name}.ext`), ext);
    openssl(['req', '-new', ...newKey, '-keyout', path(`${name}.key`), '-out', path(`${name}.csr`), '-subj', subject]);
    openssl([
      'x509',
      '-req',
      '-in',
      path(`${name}.csr`),
      '-CA',
      path(`${ca}.crt`),
      '-CAkey',
      path(`${ca}.key`),
      '-CAcreateserial',
      '-days',
      '3650',
      '-extfile',
      path(`${name}.ext`),
      '-out',
      path(`${name}.crt`),
    ]);
  };
  const apiSans = [
    'DNS:kubernetes',
    'DNS:kubernetes.default',
    'DNS:kubernetes.default.svc',
    'DNS:kubernetes.default.svc.cluster.local',
    'DNS:localhost',
    `DNS:${nodeName}`,
    'IP:127.0.0.1',
    `IP:${nodeIp}`,
    `IP:${apiServiceIp}`,
  ];
  sign('apiserver', '/CN=kube-apiserver', 'ca', 'serverAuth', apiSans);
  sign('apiserver-kubelet-client', '/O=system:masters/CN=kube-apiserver-kubelet-client', 'ca', 'clientAuth');
  sign('front-proxy-client', '/CN=front-proxy-client', 'front-proxy-ca', 'clientAuth');
  sign('admin', '/O=system:masters/CN=kubernetes-admin', 'ca', 'clientAuth');
  sign('controller-manager', '/CN=system:kube-controller-manager', 'ca', 'clientAuth');
  sign('scheduler', '/CN=system:kube-scheduler', 'ca', 'clientAuth');
  sign('kubelet', `/O=system:nodes/CN=system:node:${nodeName}`, 'ca', 'clientAuth');
  sign('kube-proxy', '/CN=system:kube-proxy', 'ca', 'clientAuth');

  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', path('sa.key')]);
  openssl(['ec', '-in', path('sa.key'), '-pubout', '-out', path('sa.pub')]);

  return {
    dir,
    caCert: path('ca.crt'),
    caKey: path('ca.key'),
    frontProxyCaCert: path('front-proxy-ca.crt'),
    saKey: path('sa.key'),
    saPub: path('sa.pub'),
    cert: (name) => ({ cert: path(`${name}.crt`), key: path(`${name}.key`) }),
  };
}

/** Writes a kubeconfig (JSON, which kubectl reads as YAML) for `name`'s client certificate. */
export function writeKubeconfig(pki: ClusterPki, name: CertName, server: string, file: string): string {
  const b64 = (p: string) => readFileSync(p).toString('base64');
  const { cert, key } = pki.cert(name);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'lectern-kube', cluster: { server, 'certificate-authority-data': b64(pki.caCert) } }],
    users: [{ name, user: { 'client-certificate-data': b64(cert), 'client-key-data': b64(key) } }],
    contexts: [{ name: 'lectern-kube', context: { cluster: 'lectern-kube', user: name } }],
    'current-context': 'lectern-kube',
  };
  writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  return file;
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}
