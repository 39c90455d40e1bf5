import { type Project, type WebhookNotification, type WebhookRecord } from '@lectern/core';
import { html, type Html } from './html.ts';
import { actionButton, cardTable, csrfField, formatTime, page, type PageContext } from './layout.ts';
import { triggerFieldset } from './webhook-edit-page.ts';

/** SPEC 3.1's health states and their colours. */
const healthLabels: Readonly<Record<WebhookRecord['health'], string>> = {
  unknown: 'Ready for message',
  working: 'Working',
  failing: 'Failing',
  dead: 'Dead',
};

export function healthBadge(w: WebhookRecord): Html {
  if (!w.isEnabled) return html`<span class="health health-disabled">Disabled</span>`;
  return html`<span class="health health-${w.health}">${healthLabels[w.health]}</span>`;
}

function webhookActionsFor(ctx: PageContext, projectId: string, w: WebhookRecord): Html {
  const base = `/console/projects/${projectId}/webhooks/${w.id}`;
  return html`${
      w.isEnabled
        ? actionButton(ctx, { action: `${base}/disable`, label: 'Disable', accessibleLabel: `Disable ${w.name}` })
        : actionButton(ctx, { action: `${base}/enable`, label: 'Enable', accessibleLabel: `Enable ${w.name}` })
    }
    ${actionButton(ctx, { action: `${base}/reset`, label: 'Reset', accessibleLabel: `Reset ${w.name}` })}
    <a class="button-link" href="${base}/edit" aria-label="Edit ${w.name}">Edit</a>`;
}

export function webhooksPage(
  ctx: PageContext,
  options: { project: Project; webhooks: readonly WebhookRecord[]; notice?: string },
): Html {
  const p = options.project;
  const rows = options.webhooks.map(
    (w) =>
      html`<tr>
        <td data-label="Name"><a href="/console/projects/${p.id}/webhooks/${w.id}">${w.name}</a></td>
        <td data-label="URL" class="url">${w.url}</td>
        <td data-label="Health">${healthBadge(w)}</td>
        <td data-label="Changed">${formatTime(w.lastModified)}</td>
        <td data-label="Actions" class="actions">${webhookActionsFor(ctx, p.id, w)}</td>
      </tr>`,
  );
  return page(ctx, {
    title: `${p.name}: webhooks`,
    ...(options.notice === undefined ? {} : { notice: options.notice }),
    body: html`<section aria-labelledby="webhooks-heading">
        <h2 id="webhooks-heading">Webhooks</h2>
        ${
          options.webhooks.length === 0
            ? html`<p>No webhooks yet.</p>`
            : cardTable({
                id: 'webhooks',
                refreshSeconds: 5,
                columns: ['Name', 'URL', 'Health', 'Changed', 'Actions'],
                rows,
              })
        }
      </section>
      <section aria-labelledby="create-webhook-heading" class="card">
        <h2 id="create-webhook-heading">Register a webhook</h2>
        <form method="post" action="/console/projects/${p.id}/webhooks" class="stack">
          ${csrfField(ctx.csrf)}
          <label for="webhook-name">Name</label>
          <input id="webhook-name" name="name" required maxlength="200" />
          <label for="webhook-url">URL</label>
          <input
            id="webhook-url"
            name="url"
            type="url"
            required
            maxlength="2048"
            placeholder="https://example.com/hook"
          />
          <label for="webhook-secret">Secret <span class="muted">(empty: a random one)</span></label>
          <input id="webhook-secret" name="secret" maxlength="200" autocomplete="off" />
          ${triggerFieldset()}
          <button type="submit">Register webhook</button>
        </form>
      </section>`,
  });
}

export type DebugFilter = 'all' | 'failed' | 'failing';
const filterLabels: Readonly<Record<DebugFilter, string>> = {
  all: 'All',
  failed: 'Failed at any time',
  failing: 'Actively failing',
};

function notificationRow(n: WebhookNotification): Html {
  const isFailing = n.state === 'pending' && n.hasFailed;
  return html`<tr class="${isFailing ? 'row-failing' : ''}">
    <td data-label="Created">${formatTime(n.createdAt)}</td>
    <td data-label="Event">${n.kind}</td>
    <td data-label="State">${isFailing ? 'failing' : n.state}${n.hasFailed && !isFailing ? ' (failed before)' : ''}</td>
    <td data-label="Attempts">${n.attempts}</td>
    <td data-label="Last attempt">${formatTime(n.lastAttemptAt)}</td>
    <td data-label="Status">${n.lastStatus ?? html`<span class="muted">none</span>`}</td>
    <td data-label="Last response">
      ${n.lastResponse === null ? html`<span class="muted">—</span>` : html`<pre class="response">${n.lastResponse}</pre>`}
    </td>
  </tr>`;
}

/** One webhook and its debug list (SPEC 6.8): the last 3 days, newest first, three filters. */
export function webhookPage(
  ctx: PageContext,
  options: {
    project: Project;
    webhook: WebhookRecord;
    filter: DebugFilter;
    notifications: readonly WebhookNotification[];
    notice?: string;
  },
): Html {
  const { project: p, webhook: w } = options;
  const base = `/console/projects/${p.id}/webhooks/${w.id}`;
  const filters = (Object.keys(filterLabels) as DebugFilter[]).map(
    (f) =>
      html`<li>
        <a href="${base}?filter=${f}" ${f === options.filter ? html` aria-current="page"` : ''}>${filterLabels[f]}</a>
      </li>`,
  );
  return page(ctx, {
    title: `Webhook ${w.name}`,
    ...(options.notice === undefined ? {} : { notice: options.notice }),
    body: html`<div id="webhook-state" data-refresh="5">
      <p>${healthBadge(w)} <span class="url">${w.url}</span></p>
      <p class="actions">${webhookActionsFor(ctx, p.id, w)}</p>
      <section aria-labelledby="debug-heading">
        <h2 id="debug-heading">Debug list <span class="muted small">(last 3 days, newest first)</span></h2>
        <nav aria-label="Filter notifications">
          <ul class="filters">
            ${filters}
          </ul>
        </nav>
        ${
          options.notifications.length === 0
            ? html`<p>No notifications${options.filter === 'all' ? '' : ' match this filter'}.</p>`
            : cardTable({
                id: 'notifications',
                columns: ['Created', 'Event', 'State', 'Attempts', 'Last attempt', 'Status', 'Last response'],
                rows: options.notifications.map(notificationRow),
              })
        }
      </section>
    </div> `,
  });
}
