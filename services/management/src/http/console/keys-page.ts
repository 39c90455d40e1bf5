import { apiKeyKinds, type ApiKeyView, type IssuedKey, type Project } from '@lectern/core';
import { html, type Html } from './html.ts';
import { actionButton, cardTable, csrfField, formatTime, page, type PageContext } from './layout.ts';

const kindLabels: Readonly<Record<string, string>> = {
  management: 'Management',
  delivery_primary: 'Delivery (primary)',
  delivery_secondary: 'Delivery (secondary)',
  preview_primary: 'Preview (primary)',
  preview_secondary: 'Preview (secondary)',
  recommendations: 'Recommendations',
};

/** A key value as created or regenerated: shown once, with a copy button. */
function issuedNotice(issued: IssuedKey): Html {
  return html`<p>New ${kindLabels[issued.key.kind] ?? issued.key.kind} key. Copy it now: it is not shown again.</p>
    <div class="secret">
      <code id="issued-key" class="secret-value">${issued.secret}</code>
      <button type="button" data-copy="issued-key" aria-label="Copy the new key">Copy</button>
    </div>`;
}

export function keysPage(
  ctx: PageContext,
  options: { project: Project; keys: readonly ApiKeyView[]; issued?: IssuedKey; notice?: string },
): Html {
  const p = options.project;
  const rows = options.keys.map(
    (k) =>
      html`<tr class="key-${k.status}">
        <td data-label="Kind">${kindLabels[k.kind] ?? k.kind}</td>
        <td data-label="User">${k.ownerEmail ?? html`<span class="muted">shared</span>`}</td>
        <td data-label="Status"><span class="status status-${k.status}">${k.status}</span></td>
        <td data-label="Created">${formatTime(k.createdAt)}</td>
        <td data-label="Expires">
          ${k.expiresAt === null ? html`<span class="muted">never</span>` : formatTime(k.expiresAt)}
        </td>
        <td data-label="${k.status === 'revoked' ? 'Revoked' : 'Actions'}" class="actions">
          ${
            k.status === 'revoked'
              ? formatTime(k.revokedAt)
              : html`${actionButton(ctx, { action: `/console/projects/${p.id}/keys/${k.id}/regenerate`, label: 'Regenerate', accessibleLabel: `Regenerate the ${kindLabels[k.kind] ?? k.kind} key ${k.ownerEmail ?? ''}`, confirm: 'Regenerate this key? The current value stops working at once.' })}
                ${actionButton(ctx, { action: `/console/projects/${p.id}/keys/${k.id}/revoke`, label: 'Revoke', accessibleLabel: `Revoke the ${kindLabels[k.kind] ?? k.kind} key ${k.ownerEmail ?? ''}`, danger: true, confirm: 'Revoke this key? Requests with it are refused from now on.' })}`
          }
        </td>
      </tr>`,
  );
  const notice = options.issued ? issuedNotice(options.issued) : options.notice;
  return page(ctx, {
    title: `${p.name}: API keys`,
    ...(notice === undefined ? {} : { notice }),
    body: html`<section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys</h2>
        ${
          options.keys.length === 0
            ? html`<p>No keys yet.</p>`
            : cardTable({ columns: ['Kind', 'User', 'Status', 'Created', 'Expires', 'Actions / revoked'], rows })
        }
      </section>
      <section aria-labelledby="create-key-heading" class="card">
        <h2 id="create-key-heading">Create a key</h2>
        <form method="post" action="/console/projects/${p.id}/keys" class="stack">
          ${csrfField(ctx.csrf)}
          <label for="key-kind">Kind</label>
          <select id="key-kind" name="kind">
            ${apiKeyKinds.map((k) => html`<option value="${k}">${kindLabels[k] ?? k}</option>`)}
          </select>
          <label for="key-user">User e-mail <span class="muted">(management keys act as this user)</span></label>
          <input id="key-user" name="user_email" type="email" autocomplete="off" />
          <label for="key-days">Validity in days <span class="muted">(management keys; default 4000)</span></label>
          <input id="key-days" name="validity_days" type="number" min="1" step="1" inputmode="numeric" />
          <button type="submit">Create key</button>
        </form>
      </section>`,
  });
}
