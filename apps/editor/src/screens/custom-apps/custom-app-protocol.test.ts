import { describe, expect, it } from 'vitest';
import { answerAppMessage, contextNotification, parseAppConfig, type AppContext } from './custom-app-protocol.ts';

const context: AppContext = {
  environmentId: 'env',
  userId: 'u1',
  userEmail: 'a@example.com',
  userRoles: [{ id: 'r1', codename: null }],
  appConfig: { greeting: 'Ahoy' },
  path: '/app/p/env/default/apps/x',
  pageTitle: 'Tools',
  currentPage: 'other',
};
const id = () => '3f2b6c1e-8d4a-4c1b-9e5f-0a1b2c3d4e5f';

describe('custom app host: answers to the SDK', () => {
  it('answers get-context v2 with exactly the properties asked (unknown ones left out)', () => {
    const answer = answerAppMessage(
      {
        type: 'get-context-request',
        requestId: 'q',
        version: '2.0.0',
        payload: { properties: ['currentPage', 'userEmail', 'bogus'] },
      },
      context,
      id,
    );
    expect(answer?.reply).toEqual({
      type: 'get-context-response',
      isError: false,
      requestId: 'q',
      version: '2.0.0',
      payload: { properties: { currentPage: 'other', userEmail: 'a@example.com' } },
    });
  });
  it('answers get-context v1 with the context and config', () => {
    const answer = answerAppMessage(
      { type: 'get-context-request', requestId: 'q', version: '1.0.0', payload: null },
      context,
      id,
    );
    expect(answer?.reply).toMatchObject({
      version: '1.0.0',
      payload: {
        context: {
          environmentId: 'env',
          userId: 'u1',
          userEmail: 'a@example.com',
          userRoles: [{ id: 'r1', codename: null }],
        },
        config: { greeting: 'Ahoy' },
      },
    });
  });
  it('subscribes and unsubscribes observers; notifications carry the observed properties', () => {
    const answer = answerAppMessage(
      { type: 'observe-context-request', requestId: 'q', version: '1.0.0', payload: { properties: ['pageTitle'] } },
      context,
      id,
    );
    expect(answer?.subscribe).toEqual({ id: id(), properties: ['pageTitle'] });
    expect(contextNotification(id(), ['pageTitle'], context).payload).toEqual({ properties: { pageTitle: 'Tools' } });
    expect(
      answerAppMessage(
        { type: 'unsubscribe-context-request', requestId: 'q2', version: '1.0.0', payload: { subscriptionId: id() } },
        context,
        id,
      )?.unsubscribe,
    ).toBe(id());
  });
  it('answers unknown messages and pop-up sizes with the SDK error codes; ignores non-requests', () => {
    expect(answerAppMessage({ type: 'nope', requestId: 'q', version: '1.0.0' }, context, id)?.reply).toMatchObject({
      isError: true,
      code: 'unknown-message',
    });
    expect(
      answerAppMessage({ type: 'set-popup-size-request', requestId: 'q', version: '1.0.0' }, context, id)?.reply,
    ).toMatchObject({
      code: 'not-supported',
    });
    expect(answerAppMessage({ type: 'get-context-request' }, context, id)).toBeNull();
    expect(answerAppMessage('hello', context, id)).toBeNull();
  });
  it('sets a pop-up size only for an app in a pop-up, within the SDK limits', () => {
    const message = (width: unknown) => ({
      type: 'set-popup-size-request',
      requestId: 'q',
      version: '1.0.0',
      payload: { width, height: { unit: '%', value: 50 } },
    });
    expect(answerAppMessage(message({ unit: 'px', value: 600 }), context, id, { isPopup: true })).toEqual({
      reply: { type: 'set-popup-size-response', isError: false, requestId: 'q', version: '1.0.0' },
      resize: { width: { unit: 'px', value: 600 }, height: { unit: '%', value: 50 } },
    });
    expect(answerAppMessage(message({ unit: 'px', value: 5000 }), context, id, { isPopup: true })?.reply).toMatchObject(
      {
        isError: true,
      },
    );
  });
  it('parses the app config as JSON, or leaves it out', () => {
    expect(parseAppConfig('{"a":1}')).toEqual({ a: 1 });
    expect(parseAppConfig('not json')).toBeUndefined();
    expect(parseAppConfig(null)).toBeUndefined();
  });
});
