/*
 * Lectern's Custom Elements JS API: the `CustomElement` global that Kontent.ai's
 * custom-element.js gives a custom element's page (its documented methods, same names and
 * arguments), speaking the same postMessage protocol to the editor that hosts the page
 * (apps/editor/src/elements/custom.tsx). A page written for Kontent.ai works with this file
 * in place of https://app.kontent.ai/js-api/custom-element/v1/custom-element.min.js.
 * Served at /app/js-api/custom-element/v1/custom-element.js (and .min.js).
 */
/* global window */
(function () {
  'use strict';
  if (window.self === window.top) throw new Error('Custom element is not hosted in an IFrame');
  var callbacks = {};
  var listeners = {};
  var next = 0;
  function newId() {
    next += 1;
    return 'ce-' + Date.now().toString(36) + '-' + next;
  }
  function send(type, data, requestId) {
    window.parent.postMessage({ type: type, data: data, requestId: requestId }, '*');
  }
  /** One answer per request (`responseType` with the same requestId). */
  function request(type, responseType, data) {
    return new Promise(function (resolve) {
      var id = newId();
      callbacks[responseType + id] = resolve;
      send(type, data, id);
    });
  }
  /** Answers that keep coming for one request (observers). */
  function listen(type, eventType, data, callback) {
    var id = newId();
    listeners[eventType + id] = callback;
    send(type, data, id);
  }
  var onDisabled = [];
  window.addEventListener(
    'message',
    function (event) {
      if (event.source !== window.parent || !event.data || typeof event.data.type !== 'string') return;
      var m = event.data;
      if (m.type === 'on-disabled-changed') {
        onDisabled.forEach(function (cb) {
          cb(Boolean(m.data && m.data.disabled));
        });
        return;
      }
      var key = m.type + (m.requestId || '');
      if (callbacks[key]) {
        var cb = callbacks[key];
        delete callbacks[key];
        cb(m.data || {});
      } else if (listeners[key]) listeners[key](m.data || {});
    },
    true,
  );
  function failIfError(data) {
    if (data && typeof data.error === 'string') throw new Error(data.error);
    return data;
  }

  window.CustomElement = {
    /** callback(element {value, disabled, config}, context {projectId, item, variant}) once the editor answers. */
    init: function (callback) {
      if (typeof callback !== 'function') throw new Error('Specify a callback function.');
      request('init-data-request', 'init-data-response', {}).then(function (data) {
        callback(data.element, data.context);
      });
    },
    /** A string, null, or {value, searchableValue}. */
    setValue: function (value) {
      return request('set-value-request', 'set-value-response', { value: value }).then(failIfError);
    },
    setHeight: function (height) {
      send('set-height-request', { height: height });
    },
    onDisabledChanged: function (callback) {
      onDisabled.push(callback);
    },
    getElementValue: function (codename, callback) {
      request('get-value-request', 'get-value-response', { codename: codename }).then(function (data) {
        failIfError(data);
        callback(data.value);
      });
    },
    /** callback(changedCodenames) whenever one of the elements changes. */
    observeElementChanges: function (codenames, callback) {
      listen('observe-element-changes', 'on-elements-changed', { elements: codenames }, function (data) {
        callback(data.elements || []);
      });
    },
    /** callback(itemDetails) when the item's details change. */
    observeItemChanges: function (callback) {
      listen('observe-item-changes', 'on-item-changed', {}, function (data) {
        callback(data.item);
      });
    },
    /** {allowMultiple, fileType: 'all' | 'images'} → Promise of [{id}] or null when cancelled. */
    selectAssets: function (config) {
      var c = config || {};
      return request('select-assets-request', 'select-assets-response', {
        allowMultiple: Boolean(c.allowMultiple),
        fileType: c.fileType === 'images' ? 'images' : 'all',
      }).then(function (data) {
        return failIfError(data).assets;
      });
    },
    getAssetDetails: function (assetIds) {
      return request('get-asset-details-request', 'get-asset-details-response', { assetIds: assetIds }).then(
        function (data) {
          return failIfError(data).assets;
        },
      );
    },
    /** {allowMultiple} → Promise of [{id}] or null when cancelled. */
    selectItems: function (config) {
      var c = config || {};
      return request('select-items-request', 'select-items-response', { allowMultiple: Boolean(c.allowMultiple) }).then(
        function (data) {
          return failIfError(data).items;
        },
      );
    },
    getItemDetails: function (itemIds) {
      return request('get-item-details-request', 'get-item-details-response', { itemIds: itemIds }).then(
        function (data) {
          return failIfError(data).items;
        },
      );
    },
  };
})();
