import { webhookActions, type Project, type WebhookRecord } from '@lectern/core';
import { html, type Html } from './html.ts';
import { csrfField, page, type PageContext } from './layout.ts';

type Section = { readonly enabled?: boolean; readonly actions?: readonly { readonly action?: string }[] };

/** Whether the stored `delivery_triggers` list `action` for `type` (an enabled section). */
function isChosen(current: Readonly<Record<string, unknown>>, type: string, action: string): boolean {
  const section = current[type] as Section | undefined;
  return section?.enabled === true && (section.actions ?? []).some((a) => a.action === action);
}

/** Slot, events and each object type's actions; checked as stored, or the defaults for a new webhook. */
export function triggerFieldset(current?: Readonly<Record<string, unknown>>): Html {
  const checked = (on: boolean) => (on ? html` checked` : '');
  const sections = Object.entries(webhookActions).map(
    ([type, actions]) =>
      html`<fieldset class="triggers">
        <legend>${type.replace('_', ' ')}</legend>
        ${actions.map((a) => {
          const on = current
            ? isChosen(current, type, a)
            : type === 'content_item' && (a === 'published' || a === 'unpublished');
          return html`<label class="check"
            ><input type="checkbox" name="trigger" value="${type}:${a}" ${checked(on)} />
            ${a.replaceAll('_', ' ')}</label
          >`;
        })}
      </fieldset>`,
  );
  const slot = current?.['slot'] ?? 'published';
  const events = current?.['events'] ?? 'specific';
  return html`<fieldset>
      <legend>Content to watch</legend>
      <label class="check"
        ><input type="radio" name="slot" value="published" ${checked(slot === 'published')} /> Published content
        (Delivery API)</label
      >
      <label class="check"
        ><input type="radio" name="slot" value="preview" ${checked(slot === 'preview')} /> Latest content (Preview
        API)</label
      >
    </fieldset>
    <fieldset>
      <legend>Events</legend>
      <label class="check"
        ><input type="radio" name="events" value="specific" ${checked(events === 'specific')} /> The events selected
        below</label
      >
      <label class="check"
        ><input type="radio" name="events" value="all" ${checked(events === 'all')} /> Every event</label
      >
    </fieldset>
    <div class="trigger-grid">${sections}</div>`;
}

/** The edit form of a webhook: name, URL, a new secret (or keep it), triggers. */
export function webhookEditPage(ctx: PageContext, options: { project: Project; webhook: WebhookRecord }): Html {
  const { project: p, webhook: w } = options;
  return page(ctx, {
    title: `Edit webhook ${w.name}`,
    body: html`<form method="post" action="/console/projects/${p.id}/webhooks/${w.id}/edit" class="card stack">
      ${csrfField(ctx.csrf)}
      <label for="webhook-name">Name</label>
      <input id="webhook-name" name="name" required maxlength="200" value="${w.name}" />
      <label for="webhook-url">URL</label>
      <input id="webhook-url" name="url" type="url" required maxlength="2048" value="${w.url}" />
      <label for="webhook-secret">New secret <span class="muted">(empty: keep the current one)</span></label>
      <input id="webhook-secret" name="secret" maxlength="200" autocomplete="off" />
      ${triggerFieldset(w.triggers)}
      <button type="submit">Save webhook</button>
    </form>`,
  });
}
