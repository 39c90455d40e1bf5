// Lectern console: progressive enhancement only. Every page works without this script; it adds
// the copy button of a new key, confirmation of destructive actions, and the self-refreshing
// parts of a page (elements with `data-refresh="<seconds>"` and an id).
'use strict';

function copyFrom(button) {
  const source = document.getElementById(button.dataset.copy);
  if (!source) return;
  const text = source.textContent || '';
  const done = () => {
    button.textContent = 'Copied';
    button.setAttribute('aria-label', 'Copied to the clipboard');
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => selectText(source));
  } else {
    selectText(source);
  }
}

function selectText(element) {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}

async function refresh(element) {
  if (document.hidden || element.contains(document.activeElement)) return;
  const response = await fetch(window.location.href, { headers: { accept: 'text/html' }, cache: 'no-store' });
  if (!response.ok || response.redirected) return;
  const fresh = new DOMParser().parseFromString(await response.text(), 'text/html').getElementById(element.id);
  if (!fresh) return;
  const replacement = document.importNode(fresh, true);
  element.replaceWith(replacement);
  watch(replacement);
}

function watch(element) {
  const seconds = Number(element.dataset.refresh);
  if (!(seconds > 0)) return;
  window.setTimeout(() => {
    refresh(element).catch(() => window.setTimeout(() => watch(element), seconds * 1000));
  }, seconds * 1000);
}

document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (button) copyFrom(button);
});

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});

document.addEventListener('DOMContentLoaded', () => {
  document.documentElement.classList.add('js');
  for (const element of document.querySelectorAll('[data-refresh][id]')) watch(element);
});
