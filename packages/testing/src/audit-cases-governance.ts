import * as core from '@lectern/core';
import type { Actor } from '@lectern/core';
import { v, type AuditCase, type Ctx } from './audit-case-kit.ts';

/*
 * Cases of the exactly-once audit test for issue 31's own operations: sign-in through an
 * identity provider, comments (a person writes them) and restoring a version from the history.
 * They run after the people cases, so writer@example.com exists.
 */

/** writer@example.com as a signed-in person of the case project (comments are written by a person). */
async function writer(c: Ctx): Promise<Actor> {
  const user = await c.deps.store.transaction((tx) => tx.users.findByEmail('writer@example.com'));
  if (!user) throw new Error('the people cases create writer@example.com first');
  return { type: 'person', userId: user.id, projectId: c.projectId, permissions: ['manage_content'], sessionId: 's' };
}

async function asWriter(c: Ctx) {
  return { ...v(c, 'second'), actor: await writer(c) };
}

export const governanceCases: AuditCase[] = [
  [
    'signInWithIdentity',
    'session.sign_in',
    (c) =>
      core.signInWithIdentity(c.deps, {
        email: 'sso-person@example.com',
        isEmailVerified: true,
        name: 'Sso Person',
        grants: [],
        mappedProjectIds: [],
      }),
    'user',
  ],
  [
    'createCommentThread',
    'comment.',
    async (c) => {
      const written = await core.createCommentThread(c.deps, {
        ...(await asWriter(c)),
        body: { element: { codename: 'title' }, text: 'Shorter, please.' },
      });
      c.state['thread'] = written.thread.id;
      c.state['comment'] = written.thread.comments[0]!.id;
    },
  ],
  [
    'replyToCommentThread',
    'comment.',
    async (c) =>
      core.replyToCommentThread(c.deps, {
        ...(await asWriter(c)),
        threadId: c.state['thread'] as string,
        body: { text: 'Done.' },
      }),
  ],
  [
    'editComment',
    'comment.',
    async (c) =>
      core.editComment(c.deps, {
        ...(await asWriter(c)),
        threadId: c.state['thread'] as string,
        commentId: c.state['comment'] as string,
        body: { text: 'Shorter, please: one line.' },
      }),
  ],
  [
    'setCommentThreadResolved',
    'comment.',
    async (c) =>
      core.setCommentThreadResolved(c.deps, {
        ...(await asWriter(c)),
        threadId: c.state['thread'] as string,
        isResolved: true,
      }),
  ],
  [
    'deleteComment',
    'comment.',
    async (c) =>
      core.deleteComment(c.deps, {
        ...(await asWriter(c)),
        threadId: c.state['thread'] as string,
        commentId: c.state['comment'] as string,
      }),
  ],
  [
    'restoreVariantVersion',
    'variant.',
    async (c) => {
      // 'third' is a draft again after the people cases (new version, scheduled, cancelled).
      const page = await core.listVariantVersions(c.deps, v(c, 'third'));
      const oldest = page.items[page.items.length - 1]!;
      return core.restoreVariantVersion(c.deps, { ...v(c, 'third'), versionId: oldest.id });
    },
  ],
];
