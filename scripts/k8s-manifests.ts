// Regenerates k8s/base/lectern.yaml from charts/lectern (helm template with k8s/chart-values.yaml),
// the plain manifests for users without Helm. Needs the tools scripts/lib/k8s-tools.sh installs.
//   node scripts/k8s-manifests.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findK8sTools } from '../test/k8s/k8s-tools.ts';
import { renderPlainManifests } from '../test/k8s/plain-manifests.ts';

const tools = findK8sTools();
if (!tools) process.exit(1);
const target = join(import.meta.dirname, '..', 'k8s', 'base', 'lectern.yaml');
writeFileSync(target, renderPlainManifests(tools));
console.log(`wrote ${target}`);
