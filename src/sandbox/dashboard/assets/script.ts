/**
 * The dashboard's one script (served by assets.ts), plain ES2020 for any current browser. Pages work
 * without it for reading; it adds the actions (fetch to the API routes with the session and the
 * dashboard header), the resolve confirmation, and live tables (each re-read every 2 s while the tab
 * is visible, from the page's own URL with live=1, which the server renders as it renders the page:
 * one renderer, one escaping).
 */
export const DASHBOARD_JS = String.raw`
'use strict';
(function () {
  var HEADER = { 'x-ledger-dashboard': '1' };

  function say(id, text) {
    var region = document.getElementById(id);
    if (region) region.textContent = text;
  }

  function refusal(body, response) {
    var detail = (body && body.detail) || {};
    var id = detail.request_id || response.headers.get('request-id');
    return 'Error [' + (detail.code || 'HTTP_' + response.status) + '] ' + (detail.message || response.statusText) +
      (id ? ' (request ' + id + ')' : '');
  }

  // The rule the CLI's "clock advance" takes: 90, 90s, 5m, 2h, 1d.
  function seconds(text) {
    var match = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)?$/.exec(String(text).trim());
    if (!match) throw new Error('duration "' + text + '" must look like 90s, 5m, 2h or 1d');
    return Number(match[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[match[2] || 's'];
  }

  function bodyOf(form) {
    var body = {};
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || field.disabled || field.type === 'submit' || field.type === 'button') return;
      var value = field.value;
      if (value === '') return;
      body[field.name] = field.dataset.type === 'duration' ? seconds(value) : value;
    });
    return body;
  }

  function reloadMain(message) {
    return fetch(location.href, { credentials: 'same-origin' }).then(function (response) {
      return response.text();
    }).then(function (text) {
      var next = new DOMParser().parseFromString(text, 'text/html').getElementById('main');
      var main = document.getElementById('main');
      if (next && main) main.innerHTML = next.innerHTML;
      say('status', message);
    });
  }

  function send(form, submitter) {
    var path = (submitter && submitter.dataset.api) || form.dataset.api;
    var body;
    say('alert', '');
    say('status', '');
    try {
      body = bodyOf(form);
    } catch (error) {
      say('alert', 'Error [VALIDATION_ERROR] ' + error.message);
      return;
    }
    var buttons = form.querySelectorAll('button');
    Array.prototype.forEach.call(buttons, function (b) { b.disabled = true; });
    fetch(path, {
      method: form.dataset.method || 'POST',
      credentials: 'same-origin',
      headers: Object.assign({ 'content-type': 'application/json' }, HEADER),
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (answer) {
        Array.prototype.forEach.call(buttons, function (b) { b.disabled = false; });
        var dialog = form.closest('dialog');
        if (!response.ok) {
          if (dialog) dialog.close();
          say('alert', refusal(answer, response));
          return;
        }
        if (dialog) dialog.close();
        var done = (submitter && submitter.dataset.done) || form.dataset.done || 'Done.';
        if (answer && answer.data && typeof answer.data.message === 'string') done += ' ' + answer.data.message;
        if (form.dataset.then) location.assign(form.dataset.then);
        else return reloadMain(done);
      });
    }, function (error) {
      Array.prototype.forEach.call(buttons, function (b) { b.disabled = false; });
      say('alert', 'Error [UNREACHABLE] the sandbox did not answer: ' + error.message);
    });
  }

  function summarise(form) {
    var out = form.querySelector('[data-summary]');
    if (!out) return;
    var action = form.elements.namedItem('action');
    var chosen = action ? action.value : '';
    form.querySelectorAll('[data-when-action]').forEach(function (part) {
      var shown = part.dataset.whenAction === chosen;
      part.hidden = !shown;
      part.querySelectorAll('select, input, textarea').forEach(function (field) { field.disabled = !shown; });
    });
    var wallet = form.elements.namedItem('target_wallet_id');
    var note = form.elements.namedItem('note');
    var text = chosen;
    if (wallet && !wallet.disabled && wallet.value) text += ' → wallet ' + wallet.value + ' (' + wallet.selectedOptions[0].dataset.whom + ')';
    if (note && note.value) text += ' · note "' + note.value + '"';
    out.textContent = text;
    var question = form.querySelector('p[data-question]');
    var option = action && action.selectedOptions[0];
    if (question && option) question.textContent = option.dataset.question || '';
  }

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form.dataset || !form.dataset.api) return;
    event.preventDefault();
    send(form, event.submitter);
  });
  document.addEventListener('click', function (event) {
    var opener = event.target.closest && event.target.closest('[data-open]');
    if (opener) {
      var dialog = document.getElementById(opener.dataset.open);
      if (dialog) {
        var form = dialog.querySelector('form');
        if (form) summarise(form);
        dialog.showModal();
      }
    }
    var closer = event.target.closest && event.target.closest('[data-close]');
    if (closer) closer.closest('dialog').close();
  });
  ['change', 'input'].forEach(function (type) {
    document.addEventListener(type, function (event) {
      var form = event.target.form;
      if (form && form.querySelector('[data-summary]')) summarise(form);
    });
  });

  // Live tables: replaced only when their text changed, and never under a person's focus.
  setInterval(function () {
    if (document.visibilityState !== 'visible') return;
    document.querySelectorAll('[data-live]').forEach(function (box) {
      fetch(box.dataset.live, { credentials: 'same-origin' }).then(function (response) {
        return response.ok ? response.text() : null;
      }).then(function (text) {
        if (text === null || text === box.innerHTML || box.contains(document.activeElement)) return;
        box.innerHTML = text;
      }, function () {});
    });
  }, 2000);
})();
`;
