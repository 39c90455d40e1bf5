import { Option, type Command } from 'commander';
import { loadConfig } from '@lectern/config';
import { attachToSupervisor, livenessOfProcess, supervisorMarginMs } from '@lectern/http-kit';
import { startEmbedded, type EmbeddedServer } from '../embedded.ts';
import { limitSettings, startSettings } from '../settings.ts';

interface StartFlags {
  dataDir?: string;
  databaseUrl?: string;
  host?: string;
  portBase?: string;
  demo?: boolean;
  json?: boolean;
  [limitFlag: string]: string | boolean | undefined;
}

/** One flag per limit setting, named after it: LECTERN_DELIVERY_CACHE_MIB is --delivery-cache-mib. */
const limitOptions = Object.values(limitSettings).map((setting) => ({
  env: setting.env,
  option: new Option(
    `--${setting.env.replace(/^LECTERN_/, '').toLowerCase().replaceAll('_', '-')} <value>`,
    `${setting.doc} [env ${setting.env}${'default' in setting ? `, default ${setting.default}` : ''}]`,
  ),
}));

/** Flags override the environment: both go through the same validation. */
function envWithFlags(flags: StartFlags): Record<string, string | undefined> {
  const limits = limitOptions.flatMap(({ env, option }) => {
    const value = flags[option.attributeName()];
    return typeof value === 'string' ? [[env, value] as const] : [];
  });
  return {
    ...process.env,
    ...Object.fromEntries(limits),
    ...(flags.dataDir === undefined ? {} : { LECTERN_DATA_DIR: flags.dataDir }),
    ...(flags.databaseUrl === undefined ? {} : { LECTERN_DATABASE_URL: flags.databaseUrl }),
    ...(flags.host === undefined ? {} : { LECTERN_HOST: flags.host }),
    ...(flags.portBase === undefined ? {} : { LECTERN_PORT_BASE: flags.portBase }),
    ...(flags.demo === false ? { LECTERN_DEMO: 'false' } : {}),
  };
}

function banner(server: EmbeddedServer): string {
  const u = server.urls;
  const lines = [
    `Lectern is running (${server.engine === 'pglite' ? `embedded, data in ${server.dataDir}` : 'on PostgreSQL'}).`,
    '',
    `  Management API     ${u.management}/v2   (management-sdk baseUrl; v1 at ${u.management}/v1)`,
    `  Delivery API       ${u.delivery}      (delivery-sdk proxy.baseUrl)`,
    `  Delivery Preview   ${u.preview}      (delivery-sdk proxy.basePreviewUrl)`,
    `  GraphQL API        ${u.graphql}/<project id>`,
    ...(u.graphqlPreview === undefined ? [] : [`  GraphQL preview    ${u.graphqlPreview}/<project id>   (preview keys)`]),
    `  Recommendations    ${u.recommendations}/api/v2/   (kontent-recommendations baseUrl)`,
    `  Asset binaries     ${u.assets}/assets/…   (their own origin; asset url fields point here)`,
    `  Health, metrics    /healthz  /readyz  /metrics on every port above`,
    `  Editor (web app)   ${u.management}/app/   (a project's people sign in here; invite them with ./lectern users invite)`,
    `  Web console        ${u.management}/console   (sign in with the operatorToken of ${server.dataDir}/server.json, or a project's management key)`,
  ];
  if (u.routed !== undefined)
    lines.push(
      `  Every API by host  ${u.routed}   (Host manage.<domain>, app.<domain>, deliver.<domain>, preview-deliver.<domain>, graphql.<domain>, recommend.<domain>, assets.<domain>)`,
    );
  if (server.demo) {
    const id = server.demo.project.id;
    lines.push('', `Demo project "${server.demo.project.name}": ${id}`, 'API keys (shown once; keep them):');
    for (const k of server.demo.keys)
      lines.push(`  ${k.key.kind.padEnd(18)} ${k.secret}${k.key.ownerEmail ? `   (user ${k.key.ownerEmail})` : ''}`);
    const mgmt = server.demo.keys.find((k) => k.key.kind === 'management')?.secret ?? '<management key>';
    lines.push(
      '',
      'Try:',
      `  curl -H "Authorization: Bearer ${mgmt}" ${u.management}/v2/projects/${id}`,
      `  curl -G ${u.graphql}/${id} --data-urlencode 'query={ article_All { items { title } } }'`,
    );
    const recs = server.demo.keys.find((k) => k.key.kind === 'recommendations')?.secret;
    if (recs !== undefined)
      lines.push(
        `  curl -H "Authorization: Bearer ${recs}" -H 'content-type: application/json' ${u.recommendations}/api/v2/recommend/items \\`,
        `       -d '{"visitId":"me","currentItemCodename":"caching_delivery_responses","responseLimit":3,"requestedTypeCodename":"article"}'`,
      );
  } else {
    lines.push(
      '',
      'Projects and keys: ./lectern project list, ./lectern keys list <project id>, ./lectern keys create --help',
    );
  }
  lines.push('', 'Stop with Ctrl+C (or SIGTERM).');
  return lines.join('\n');
}

function machineSummary(server: EmbeddedServer): string {
  return JSON.stringify({
    data_dir: server.dataDir,
    engine: server.engine,
    urls: server.urls,
    editor_url: `${server.urls.management}/app/`,
    demo: server.demo && {
      project_id: server.demo.project.id,
      keys: server.demo.keys.map((k) => ({ id: k.key.id, kind: k.key.kind, api_key: k.secret })),
    },
  });
}

export function registerStart(program: Command): void {
  const start = program
    .command('start')
    .description(
      'Run Lectern embedded: every API in this process, data in a local directory (PostgreSQL with --database-url).',
    )
    .option('--data-dir <dir>', 'data directory [env LECTERN_DATA_DIR, default .lectern-data]')
    .option(
      '--database-url <url>',
      'use this PostgreSQL database instead of the embedded one [env LECTERN_DATABASE_URL]',
    )
    .option('--host <address>', 'address to listen on [env LECTERN_HOST, default 127.0.0.1]')
    .option(
      '--port-base <port>',
      'Management on this port, Delivery +1, Preview +2, GraphQL +3, Recommendations +4; 0 for free ports [env LECTERN_PORT_BASE, default 4400]',
    )
    .option('--no-demo', 'do not create the demo project on first start [env LECTERN_DEMO]')
    .option('--json', 'print the start summary as one JSON line (for scripts)');
  for (const { option } of limitOptions) start.addOption(option);
  start.action(async (flags: StartFlags) => {
    const config = loadConfig({ settings: startSettings, env: envWithFlags(flags) });
    // Under `lectern` (cli.ts) this is the supervised child; it tells the supervisor its grace period.
    const supervisor = attachToSupervisor({ graceMs: config.shutdownGraceMs });
    const server = await startEmbedded(config);
    // Liveness judges the running server, not its start (the database may block for seconds).
    livenessOfProcess().reset();
    console.log(flags.json ? machineSummary(server) : banner(server));
    const shutdown = (signal: string) => {
      supervisor.acknowledgeStop();
      if (!flags.json) console.error(`\n${signal}: finishing in-flight requests, then stopping.`);
      // The supervisor kills this process if it outlives the same deadline with a stuck loop.
      const deadlineMs = config.shutdownGraceMs + supervisorMarginMs;
      setTimeout(() => {
        console.error(`did not stop within ${deadlineMs} ms; exiting`);
        process.exit(1);
      }, deadlineMs);
      server.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`error while stopping: ${(error as Error).message}`);
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  });
}
