import { html, type Html } from './html.ts';

/** Asset URLs carry a digest of their content, so they are cached for a year and never stale. */
export interface AssetUrls {
  readonly css: string;
  readonly js: string;
}

export interface PageContext {
  readonly assets: AssetUrls;
  /** The session's CSRF token; null on the sign-in page (it has its own). */
  readonly csrf: string | null;
  /** The signed-in project limit: null for the operator. */
  readonly projectScope: string | null;
  /** Project navigation, when a project page is shown. */
  readonly project?: { readonly id: string; readonly name: string; readonly section: 'overview' | 'keys' | 'webhooks' };
}

/**
 * A list as a table in a scrolling box, whose rows become labelled cards at phone width
 * (`class="cards"`); `refreshSeconds` makes the page's script reload it by itself.
 */
export function cardTable(options: {
  id?: string;
  refreshSeconds?: number;
  columns: readonly string[];
  rows: readonly Html[];
}): Html {
  const id = options.id === undefined ? '' : html` id="${options.id}"`;
  const refresh = options.refreshSeconds === undefined ? '' : html` data-refresh="${options.refreshSeconds}"`;
  return html`<div class="scroll">
    <table${id} class="cards"${refresh}>
      <thead>
        <tr>
          ${options.columns.map((c) => html`<th scope="col">${c}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${options.rows}
      </tbody>
    </table>
  </div>`;
}

export function csrfField(csrf: string | null): Html {
  return html`<input type="hidden" name="_csrf" value="${csrf ?? ''}" />`;
}

/** A one-button form posting to `action` (every change is a POST with the CSRF token). */
export function actionButton(
  ctx: PageContext,
  options: { action: string; label: string; accessibleLabel?: string; danger?: boolean; confirm?: string },
): Html {
  return html`<form
    method="post"
    action="${options.action}"
    class="inline"
    ${options.confirm ? html` data-confirm="${options.confirm}"` : ''}
  >
    ${csrfField(ctx.csrf)}<button
      type="submit"
      class="${options.danger ? 'danger' : 'secondary'}"
      ${options.accessibleLabel ? html` aria-label="${options.accessibleLabel}"` : ''}
    >
      ${options.label}
    </button>
  </form>`;
}

function nav(ctx: PageContext): Html {
  const p = ctx.project;
  const link = (href: string, label: string, isCurrent: boolean) =>
    html`<li><a href="${href}" ${isCurrent ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav aria-label="Main">
    <ul>
      ${ctx.projectScope === null ? link('/console/projects', 'Projects', p === undefined) : ''}
      ${
        p
          ? html`${link(`/console/projects/${p.id}`, 'Overview', p.section === 'overview')}
            ${ctx.projectScope === null ? link(`/console/projects/${p.id}/keys`, 'API keys', p.section === 'keys') : ''}
            ${link(`/console/projects/${p.id}/webhooks`, 'Webhooks', p.section === 'webhooks')}`
          : ''
      }
    </ul>
  </nav>`;
}

export function page(ctx: PageContext, options: { title: string; body: Html; notice?: Html | string }): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · Lectern console</title>
        <link rel="stylesheet" href="${ctx.assets.css}" />
        <script src="${ctx.assets.js}" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="/console">Lectern console</a>
          ${ctx.project ? html`<span class="project-name">${ctx.project.name}</span>` : ''}
          ${ctx.csrf === null ? '' : html`${nav(ctx)}${actionButton(ctx, { action: '/console/sign-out', label: 'Sign out' })}`}
        </header>
        <main id="main" tabindex="-1">
          <h1>${options.title}</h1>
          ${options.notice === undefined ? '' : html`<div class="notice" role="status">${options.notice}</div>`}
          ${options.body}
        </main>
      </body>
    </html>`;
}

export function formatTime(value: Date | string | null): Html {
  if (value === null) return html`<span class="muted">—</span>`;
  const date = typeof value === 'string' ? new Date(value) : value;
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}
