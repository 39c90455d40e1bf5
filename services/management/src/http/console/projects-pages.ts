import type { Project, ProjectOverview } from '@lectern/core';
import { html, type Html } from './html.ts';
import { cardTable, csrfField, formatTime, page, type PageContext } from './layout.ts';

export function signInPage(
  ctx: PageContext,
  options: { csrf: string; error?: string; ssoProviderName?: string },
): Html {
  // Single sign-on for operators (docs/sso.md), above the token form, which stays the way in.
  const sso =
    options.ssoProviderName === undefined
      ? ''
      : html`<p class="card">
          <a class="button-link" href="/console/sso/start">Sign in with ${options.ssoProviderName}</a>
        </p>`;
  return page(ctx, {
    title: 'Sign in',
    ...(options.error === undefined ? {} : { notice: options.error }),
    body: html`${sso}
      <form method="post" action="/console/sign-in" class="card stack">
        <input type="hidden" name="_csrf" value="${options.csrf}" />
        <p>Sign in with the operator token (every project) or a project's management API key (that project only).</p>
        <label for="token">Operator token or management API key</label>
        <input id="token" name="token" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>`,
  });
}

export function projectsPage(
  ctx: PageContext,
  options: { projects: readonly Project[]; notice?: Html | string },
): Html {
  const rows = options.projects.map(
    (p) =>
      html`<tr>
        <td data-label="Name"><a href="/console/projects/${p.id}">${p.name}</a></td>
        <td data-label="Id"><code>${p.id}</code></td>
        <td data-label="Environment">${p.environment}</td>
        <td data-label="Secure access">${p.isSecureAccess ? 'on' : 'off'}</td>
        <td data-label="Created">${formatTime(p.createdAt)}</td>
      </tr>`,
  );
  return page(ctx, {
    title: 'Projects',
    ...(options.notice === undefined ? {} : { notice: options.notice }),
    body: html`<section aria-labelledby="list-heading">
        <h2 id="list-heading">All projects</h2>
        ${
          options.projects.length === 0
            ? html`<p>No projects yet.</p>`
            : cardTable({ columns: ['Name', 'Id', 'Environment', 'Secure access', 'Created'], rows })
        }
      </section>
      <section aria-labelledby="create-heading" class="card">
        <h2 id="create-heading">Create a project</h2>
        <form method="post" action="/console/projects" class="stack">
          ${csrfField(ctx.csrf)}
          <label for="project-name">Name</label>
          <input id="project-name" name="name" required maxlength="200" />
          <label class="check"
            ><input type="checkbox" name="secure_access" value="on" /> Secure access (Delivery needs a key)</label
          >
          <button type="submit">Create project</button>
        </form>
      </section>`,
  });
}

export interface Lags {
  /** Gauge values this process exports; null when another process measures it (cluster). */
  readonly relay: number | null;
  readonly relayOldestSeconds: number | null;
  readonly consumer: number | null;
  readonly index: number | null;
}

function lag(value: number | null, unit = 'events'): Html {
  return value === null ? html`<span class="muted">measured by another service</span>` : html`${value} ${unit}`;
}

/** The part of the overview the script refreshes (fetched again with `?fragment=overview`). */
export function overviewFragment(overview: ProjectOverview, lags: Lags, at: Date): Html {
  const w = overview.webhooks;
  return html`<div id="overview" data-refresh="10">
    <dl class="stats">
      <div>
        <dt>Content types</dt>
        <dd>${overview.contentTypes}</dd>
      </div>
      <div>
        <dt>Content items</dt>
        <dd>${overview.items}</dd>
      </div>
      <div>
        <dt>Published variants</dt>
        <dd>${overview.publishedVariants}</dd>
      </div>
      <div>
        <dt>Change events</dt>
        <dd>${overview.latestSeq}</dd>
      </div>
    </dl>
    <h2>Event pipeline lag <span class="muted small">(all projects)</span></h2>
    <dl class="stats">
      <div>
        <dt>Relay (outbox → bus)</dt>
        <dd>${lag(lags.relay)}</dd>
      </div>
      <div>
        <dt>Oldest unrelayed event</dt>
        <dd>${lag(lags.relayOldestSeconds, 's')}</dd>
      </div>
      <div>
        <dt>Consumer (bus → indexer)</dt>
        <dd>${lag(lags.consumer)}</dd>
      </div>
      <div>
        <dt>Delivery index</dt>
        <dd>${lag(lags.index)}</dd>
      </div>
    </dl>
    <h2>Webhooks</h2>
    <dl class="stats">
      <div>
        <dt>Webhooks</dt>
        <dd>${w.total} (${w.enabled} enabled)</dd>
      </div>
      <div>
        <dt>Queued notifications</dt>
        <dd>${w.pending}</dd>
      </div>
      <div>
        <dt>Failing notifications</dt>
        <dd>${w.failing}</dd>
      </div>
      <div>
        <dt>Health</dt>
        <dd>
          <span class="health health-working">${w.byHealth.working} working</span>
          <span class="health health-failing">${w.byHealth.failing} failing</span>
          <span class="health health-unknown">${w.byHealth.unknown} ready</span>
          <span class="health health-dead">${w.byHealth.dead} dead</span>
        </dd>
      </div>
    </dl>
    <p class="muted small" aria-live="polite">
      Updated ${html`<time datetime="${at.toISOString()}">${at.toISOString().slice(11, 19)} UTC</time>`}; refreshes
      every 10 seconds.
    </p>
  </div>`;
}

export function overviewPage(
  ctx: PageContext,
  options: {
    project: Project;
    fragment: Html;
    /** Whether recommendations track visits manually only; null: no recommendation engine here. */
    isManualTracking: boolean | null;
    notice?: Html | string;
  },
): Html {
  const p = options.project;
  const tracking = options.isManualTracking;
  const isOperator = ctx.projectScope === null;
  return page(ctx, {
    title: `${p.name}: overview`,
    ...(options.notice === undefined ? {} : { notice: options.notice }),
    body: html`<p>
        Project id <code>${p.id}</code> · environment ${p.environment} · secure access
        ${p.isSecureAccess ? 'on' : 'off'}
      </p>
      ${options.fragment}
      ${
        isOperator
          ? html`<section aria-labelledby="settings-heading" class="card">
              <h2 id="settings-heading">Settings</h2>
              <form method="post" action="/console/projects/${p.id}" class="stack">
                ${csrfField(ctx.csrf)}
                <label for="rename">Name</label>
                <input id="rename" name="name" value="${p.name}" required maxlength="200" />
                <label class="check"
                  ><input type="checkbox" name="secure_access" value="on" ${p.isSecureAccess ? html` checked` : ''} />
                  Secure access (Delivery needs a delivery key)</label
                >
                ${
                  tracking === null
                    ? ''
                    : html`<label class="check"
                        ><input type="checkbox" name="manual_tracking" value="on" ${tracking ? html` checked` : ''} />
                        Track visits manually (recommendation requests record no visit)</label
                      >`
                }
                <button type="submit">Save settings</button>
              </form>
            </section>`
          : ''
      }`,
  });
}
