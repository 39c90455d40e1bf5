import { join } from 'node:path';
import { chartDir, helmTemplate, type K8sTools } from './k8s-tools.ts';

/** The values k8s/base is rendered with (engine addresses and the domain are patched by overlays). */
export const plainValuesFile = join(chartDir, '..', '..', 'k8s', 'chart-values.yaml');

/** k8s/base/lectern.yaml as the chart renders it now. */
export function renderPlainManifests(tools: K8sTools): string {
  const header = [
    '# Generated from charts/lectern with k8s/chart-values.yaml by `node scripts/k8s-manifests.ts`;',
    '# do not edit (a test fails when this file and the chart differ). Customise with an overlay.',
    '',
  ].join('\n');
  const rendered = helmTemplate(tools, { valuesFiles: [plainValuesFile], release: 'lectern' });
  // Applied with kubectl, not managed by a Helm release (the hook annotations are then inert).
  return header + rendered.replaceAll('app.kubernetes.io/managed-by: Helm', 'app.kubernetes.io/managed-by: kustomize');
}
