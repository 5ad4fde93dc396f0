import { createHash } from 'node:crypto';

/**
 * The interactive API reference at `/docs`: one HTML page with its style and script inline, no
 * asset from anywhere else. The script fetches `/v1/openapi.json` and renders it: operations by
 * tag, their parameters, bodies and answers, and a form per operation that sends a request with
 * the bearer token typed at the top of the page. Everything is built with DOM calls and
 * `textContent`, never from HTML strings, so nothing of the document can inject markup.
 */

const STYLE = String.raw`
:root { color-scheme: light; --fg: #1b1f24; --muted: #4d5661; --line: #d0d7de; --bg: #fff; --soft: #f6f8fa; --focus: #0b57d0; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
code, pre, textarea, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
a { color: #0a4fa8; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--bg); padding: 0.5rem 1rem; z-index: 2; }
.skip:focus { left: 0.5rem; }
header { padding: 1rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--soft); }
header h1 { margin: 0 0 0.75rem; font-size: 1.5rem; }
.controls { display: flex; flex-wrap: wrap; gap: 0.75rem 1.5rem; align-items: flex-end; }
.field { display: flex; flex-direction: column; gap: 0.25rem; }
.field.wide { flex: 1 1 24rem; }
.row { display: flex; gap: 0.5rem; }
.row input { flex: 1; }
input, select, textarea { font: inherit; padding: 0.4rem 0.5rem; border: 1px solid #8c959f; border-radius: 4px; background: var(--bg); color: var(--fg); }
textarea { width: 100%; min-height: 8rem; }
button { font: inherit; padding: 0.4rem 0.9rem; border-radius: 4px; border: 1px solid #1f6feb; background: #1f6feb; color: #fff; cursor: pointer; }
button.secondary { background: var(--bg); color: #0a4fa8; }
.hint { color: var(--muted); font-size: 0.875rem; margin: 0.25rem 0 0; }
.layout { display: flex; align-items: flex-start; }
nav { position: sticky; top: 0; width: 18rem; max-height: 100vh; overflow: auto; padding: 1rem; border-right: 1px solid var(--line); flex: none; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav li li a { display: block; padding: 0.1rem 0 0.1rem 0.75rem; font-size: 0.875rem; text-decoration: none; }
nav li li a:hover { text-decoration: underline; }
nav > ul > li { margin-bottom: 0.75rem; }
main { flex: 1; min-width: 0; padding: 1rem 1.5rem 4rem; }
main:focus { outline: none; }
.intro p { max-width: 60rem; }
section.tag { margin-top: 2rem; }
section.tag > h2 { border-bottom: 1px solid var(--line); padding-bottom: 0.25rem; }
details.op { border: 1px solid var(--line); border-radius: 6px; margin: 0.5rem 0; background: var(--bg); }
details.op > summary { padding: 0.5rem 0.75rem; cursor: pointer; display: flex; gap: 0.75rem; align-items: baseline; flex-wrap: wrap; }
details.op[open] > summary { border-bottom: 1px solid var(--line); background: var(--soft); }
.op-body { padding: 0.5rem 1rem 1rem; }
.op-body h3 { font-size: 1rem; margin: 1.25rem 0 0.5rem; }
.method { display: inline-block; min-width: 4.5rem; text-align: center; font-weight: 700; font-size: 0.8rem; padding: 0.1rem 0.4rem; border-radius: 4px; border: 1px solid currentColor; }
.m-get { color: #0b5a2a; background: #e6f4ea; }
.m-post { color: #0a3f8a; background: #e8f0fe; }
.m-put { color: #7a4100; background: #fef3e0; }
.m-patch { color: #5b2a86; background: #f3e8fd; }
.m-delete { color: #a00f0f; background: #fde8e8; }
.path { font-weight: 600; }
.summary-text { color: var(--muted); }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: 0.35rem 0.5rem; }
.schema ul { list-style: none; margin: 0.25rem 0; padding-left: 1.25rem; border-left: 2px solid var(--line); }
.schema > ul { padding-left: 0.5rem; }
.schema li { margin: 0.15rem 0; }
.type { color: #6e3f00; }
.req { color: #a00f0f; font-size: 0.8rem; }
.constraint { color: var(--muted); font-size: 0.85rem; }
.status-code { font-weight: 700; }
form.try { border-top: 1px dashed var(--line); margin-top: 1.25rem; padding-top: 0.25rem; }
form.try .field { margin: 0.5rem 0; max-width: 40rem; }
.result { margin-top: 0.75rem; }
.result pre { background: var(--soft); border: 1px solid var(--line); padding: 0.75rem; overflow: auto; max-height: 30rem; white-space: pre-wrap; word-break: break-word; }
.ok { color: #0b5a2a; } .bad { color: #a00f0f; }
[hidden] { display: none !important; }
@media (max-width: 50rem) { .layout { display: block; } nav { position: static; width: auto; max-height: none; border-right: 0; border-bottom: 1px solid var(--line); } }
`;

// Written without template literals: it lives inside one.
const SCRIPT = String.raw`
(function () {
  'use strict';
  var SPEC_URL = '/v1/openapi.json';
  var BACKTICK = '\x60';
  var METHODS = ['get', 'post', 'put', 'patch', 'delete'];
  var doc = null;
  var main = document.getElementById('main');
  var nav = document.getElementById('nav');
  var tokenInput = document.getElementById('token');
  var filterInput = document.getElementById('filter');
  var filterStatus = document.getElementById('filter-status');
  var counter = 0;

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === undefined || value === null || value === false) return;
      if (name === 'text') node.textContent = value;
      else if (name === 'class') node.className = value;
      else if (value === true) node.setAttribute(name, '');
      else node.setAttribute(name, String(value));
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function uid(prefix) {
    counter += 1;
    return prefix + '-' + counter;
  }

  /** Inline markdown of the document's descriptions: code spans and bold, nothing else. */
  function inline(text) {
    var nodes = [];
    String(text).split(BACKTICK).forEach(function (part, i) {
      if (i % 2 === 1) { nodes.push(el('code', { text: part })); return; }
      part.split('**').forEach(function (piece, j) {
        if (!piece) return;
        nodes.push(j % 2 === 1 ? el('strong', { text: piece }) : document.createTextNode(piece));
      });
    });
    return nodes;
  }

  function paragraphs(text) {
    return String(text || '').split(/\n\s*\n/).map(function (block) {
      return el('p', {}, inline(block.replace(/\s*\n\s*/g, ' ')));
    });
  }

  function refName(schema) {
    return schema && typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : null;
  }

  function resolve(schema) {
    var name = refName(schema);
    return name ? (doc.components.schemas[name] || {}) : (schema || {});
  }

  function typeLabel(schema) {
    if (!schema) return 'any';
    var name = refName(schema);
    if (name) return name;
    if (schema.anyOf) return schema.anyOf.map(typeLabel).join(' | ');
    if (schema.oneOf) return schema.oneOf.map(typeLabel).join(' | ');
    if (schema.enum) return schema.enum.map(function (v) { return JSON.stringify(v); }).join(' | ');
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    var type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
    if (type === 'array') return 'array of ' + typeLabel(schema.items);
    if (type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object' && !schema.properties) {
      return 'object of ' + typeLabel(schema.additionalProperties);
    }
    return type || 'any';
  }

  function constraints(schema) {
    var parts = [];
    var labels = { minLength: 'min length', maxLength: 'max length', minimum: 'min', maximum: 'max', exclusiveMinimum: 'greater than', exclusiveMaximum: 'less than', minItems: 'min items', maxItems: 'max items', pattern: 'pattern', 'default': 'default' };
    Object.keys(labels).forEach(function (key) {
      if (schema[key] !== undefined) parts.push(labels[key] + ' ' + (key === 'pattern' ? schema[key] : JSON.stringify(schema[key])));
    });
    return parts.join(', ');
  }

  function schemaLink(name) {
    return el('a', { href: '#schema-' + name, 'class': 'type mono', text: name });
  }

  /** One schema as a nested list of its properties; named schemas inside are links. */
  function schemaTree(schema, depth) {
    var resolved = resolve(schema);
    var list = el('ul');
    var props = resolved.properties || {};
    var required = resolved.required || [];
    Object.keys(props).forEach(function (name) {
      var prop = props[name];
      var item = el('li', {}, [
        el('code', { text: name }), ' ',
        refName(prop) ? schemaLink(refName(prop)) : el('span', { 'class': 'type mono', text: typeLabel(prop) }),
        required.indexOf(name) >= 0 ? el('span', { 'class': 'req', text: ' required' }) : null,
      ]);
      var c = constraints(prop);
      if (c) item.appendChild(el('span', { 'class': 'constraint', text: ' (' + c + ')' }));
      if (prop.description) item.appendChild(el('span', {}, [' — '].concat(inline(prop.description))));
      var inner = prop.type === 'array' ? prop.items : prop;
      var nested = inner && !refName(inner) && (inner.properties || (inner.anyOf || []).some(function (s) { return s.properties; }));
      if (nested && depth < 4) {
        var objectPart = inner.properties ? inner : inner.anyOf.filter(function (s) { return s.properties; })[0];
        item.appendChild(schemaTree(objectPart, depth + 1));
      }
      list.appendChild(item);
    });
    if (resolved.patternProperties) {
      Object.keys(resolved.patternProperties).forEach(function (pattern) {
        list.appendChild(el('li', {}, [el('span', { 'class': 'mono', text: 'keys matching ' + pattern }), ' — '].concat(inline(resolved.patternProperties[pattern].description || typeLabel(resolved.patternProperties[pattern])))));
      });
    }
    if (resolved.additionalProperties && typeof resolved.additionalProperties === 'object') {
      var extra = resolved.additionalProperties;
      list.appendChild(el('li', {}, [el('span', { 'class': 'mono', text: 'any other key: ' }), refName(extra) ? schemaLink(refName(extra)) : el('span', { 'class': 'type mono', text: typeLabel(extra) })]));
    }
    if (resolved.anyOf && !resolved.properties) {
      resolved.anyOf.forEach(function (option) {
        list.appendChild(el('li', {}, [el('span', { 'class': 'mono', text: 'one of: ' }), refName(option) ? schemaLink(refName(option)) : el('span', { 'class': 'type mono', text: typeLabel(option) })]));
      });
    }
    return list;
  }

  function schemaBlock(schema) {
    var name = refName(schema);
    var resolved = resolve(schema);
    var block = el('div', { 'class': 'schema' }, [
      el('p', {}, [name ? schemaLink(name) : el('span', { 'class': 'type mono', text: typeLabel(schema) })].concat(resolved.description ? [' — '].concat(inline(resolved.description)) : [])),
    ]);
    if (resolved.properties || resolved.additionalProperties || resolved.patternProperties || resolved.anyOf) block.appendChild(schemaTree(schema, 0));
    return block;
  }

  /** A value of the schema to start from in a body field. */
  function example(schema, key, depth) {
    var name = refName(schema);
    if (name === 'LocaleFile') return { home: { title: 'Welcome', greeting: 'Hello {name}' } };
    var s = resolve(schema);
    if (depth > 5) return null;
    if (s['default'] !== undefined) return s['default'];
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum[0];
    if (s.anyOf) return example(s.anyOf.filter(function (o) { return o.type !== 'null'; })[0] || s.anyOf[0], key, depth + 1);
    var type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (type === 'object' || s.properties) {
      var out = {};
      var props = s.properties || {};
      var keys = (s.required && s.required.length) ? s.required : Object.keys(props).slice(0, 1);
      keys.forEach(function (k) { out[k] = example(props[k], k, depth + 1); });
      return out;
    }
    if (type === 'array') return [example(s.items, key, depth + 1)];
    if (type === 'integer' || type === 'number') return s.minimum !== undefined ? s.minimum : 1;
    if (type === 'boolean') return false;
    var samples = { email: 'ada@example.com', password: 'correct horse battery', name: 'Shop', sourceLocale: 'en', locale: 'de', label: 'CI', apiKey: 'sk-your-provider-key', userCode: 'BCDF-GHJK' };
    return samples[key] !== undefined ? samples[key] : '';
  }

  function securityText(op) {
    if (!op.security || op.security.length === 0) return [document.createTextNode('No token needed.')];
    var kinds = op.security.map(function (requirement) {
      return Object.keys(requirement).map(function (scheme) {
        var scopes = requirement[scheme];
        return scheme === 'accessToken' ? 'a user access token' : 'a project API token with ' + scopes.join(' or ') + ' permission';
      }).join(' and ');
    });
    return [document.createTextNode('Bearer token: ' + kinds.join(', or ') + '.')];
  }

  function parametersTable(params) {
    var body = el('tbody');
    params.forEach(function (p) {
      body.appendChild(el('tr', {}, [
        el('td', {}, [el('code', { text: p.name }), p.required ? el('span', { 'class': 'req', text: ' required' }) : null]),
        el('td', { text: p['in'] }),
        el('td', {}, [el('span', { 'class': 'type mono', text: typeLabel(p.schema) }), constraints(p.schema) ? el('div', { 'class': 'constraint', text: constraints(p.schema) }) : null]),
        el('td', {}, inline(p.description || '')),
      ]));
    });
    return el('table', {}, [
      el('thead', {}, [el('tr', {}, [el('th', { scope: 'col', text: 'Name' }), el('th', { scope: 'col', text: 'In' }), el('th', { scope: 'col', text: 'Type' }), el('th', { scope: 'col', text: 'Description' })])]),
      body,
    ]);
  }

  function responsesList(op) {
    var list = el('ul', { 'class': 'responses' });
    Object.keys(op.responses).forEach(function (status) {
      var response = op.responses[status];
      var content = response.content && response.content['application/json'];
      var item = el('li', {}, [el('span', { 'class': 'status-code', text: status }), ' '].concat(inline(response.description)));
      if (content) {
        item.appendChild(document.createTextNode(' → '));
        item.appendChild(refName(content.schema) ? schemaLink(refName(content.schema)) : el('span', { 'class': 'type mono', text: typeLabel(content.schema) }));
      }
      list.appendChild(item);
    });
    return list;
  }

  function inputFor(param, id) {
    var schema = param.schema || {};
    var attrs = { id: id, name: param.name, required: param.required, 'aria-describedby': id + '-hint' };
    if (schema.type === 'boolean') {
      return el('select', attrs, [el('option', { value: '', text: '(not sent)' }), el('option', { value: 'true', text: 'true' }), el('option', { value: 'false', text: 'false' })]);
    }
    if (schema.enum) {
      return el('select', attrs, [param.required ? null : el('option', { value: '', text: '(not sent)' })].concat(schema.enum.map(function (v) { return el('option', { value: v, text: v }); })));
    }
    attrs.type = schema.type === 'integer' ? 'number' : 'text';
    if (schema.minimum !== undefined) attrs.min = schema.minimum;
    if (schema.maximum !== undefined) attrs.max = schema.maximum;
    attrs.spellcheck = 'false';
    attrs.autocomplete = 'off';
    return el('input', attrs);
  }

  function showResult(region, response, text, started, label) {
    region.textContent = '';
    var ms = Math.round(performance.now() - started);
    var requestId = response.headers.get('x-request-id');
    region.appendChild(el('p', {}, [
      el('strong', { 'class': response.ok ? 'ok' : 'bad', text: label + ': ' + response.status + ' ' + response.statusText }),
      ' in ' + ms + ' ms' + (requestId ? ' · X-Request-Id ' + requestId : ''),
    ]));
    var shown = text;
    var parsed = null;
    try { parsed = text ? JSON.parse(text) : null; shown = parsed === null ? '(no body)' : JSON.stringify(parsed, null, 2); } catch (e) { shown = text; }
    region.appendChild(el('pre', { tabindex: '0', 'aria-label': 'Response body', text: shown }));
    if (parsed && typeof parsed.accessToken === 'string') {
      var use = el('button', { type: 'button', 'class': 'secondary', text: 'Use this access token' });
      use.addEventListener('click', function () { tokenInput.value = parsed.accessToken; tokenInput.focus(); });
      region.appendChild(use);
    }
  }

  function tryForm(path, method, op) {
    var form = el('form', { 'class': 'try', novalidate: true });
    var headingId = uid('try');
    form.setAttribute('aria-labelledby', headingId);
    form.appendChild(el('h3', { id: headingId, text: 'Try it' }));
    form.appendChild(el('p', { 'class': 'hint' }, [el('span', { 'class': 'method m-' + method, text: method.toUpperCase() }), ' ', el('code', { text: path }), op.security && op.security.length ? ' — sent with the bearer token above' : ' — sent without a token']));
    var fields = [];
    (op.parameters || []).forEach(function (param) {
      var id = uid('param');
      var input = inputFor(param, id);
      fields.push({ param: param, input: input });
      form.appendChild(el('div', { 'class': 'field' }, [
        el('label', { 'for': id, text: param.name + ' (' + param['in'] + (param.required ? ', required' : '') + ')' }),
        input,
        el('p', { id: id + '-hint', 'class': 'hint' }, [typeLabel(param.schema) + (constraints(param.schema) ? ', ' + constraints(param.schema) : '') + '. '].concat(inline(param.description || ''))),
      ]));
    });
    var bodyInput = null;
    if (op.requestBody) {
      var bodyId = uid('body');
      var schema = op.requestBody.content['application/json'].schema;
      bodyInput = el('textarea', { id: bodyId, spellcheck: 'false', 'aria-describedby': bodyId + '-hint' });
      bodyInput.value = JSON.stringify(example(schema, '', 0), null, 2);
      form.appendChild(el('div', { 'class': 'field' }, [
        el('label', { 'for': bodyId, text: 'Request body (JSON' + (op.requestBody.required ? ', required' : '') + ')' }),
        bodyInput,
        el('p', { id: bodyId + '-hint', 'class': 'hint', text: 'Sent as Content-Type: application/json; leave it empty to send no body.' }),
      ]));
    }
    var send = el('button', { type: 'submit', text: 'Send ' + method.toUpperCase() + ' request' });
    form.appendChild(send);
    var region = el('div', { 'class': 'result', 'aria-live': 'polite' });
    form.appendChild(region);

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var url = path;
      var query = [];
      var headers = { accept: 'application/json' };
      var missing = [];
      fields.forEach(function (field) {
        var value = field.input.value;
        if (value === '') { if (field.param.required) missing.push(field.param.name); return; }
        if (field.param['in'] === 'path') url = url.replace('{' + field.param.name + '}', encodeURIComponent(value));
        else if (field.param['in'] === 'query') query.push(encodeURIComponent(field.param.name) + '=' + encodeURIComponent(value));
        else headers[field.param.name] = value;
      });
      if (missing.length) {
        region.textContent = '';
        region.appendChild(el('p', { 'class': 'bad', text: 'Fill in: ' + missing.join(', ') + '.' }));
        return;
      }
      if (query.length) url += '?' + query.join('&');
      var token = tokenInput.value.trim();
      if (token && op.security && op.security.length) headers.authorization = 'Bearer ' + token;
      var init = { method: method.toUpperCase(), headers: headers };
      if (bodyInput && bodyInput.value.trim() !== '') {
        headers['content-type'] = 'application/json';
        init.body = bodyInput.value;
      }
      var started = performance.now();
      send.disabled = true;
      region.textContent = 'Sending…';
      fetch(url, init)
        .then(function (response) { return response.text().then(function (text) { showResult(region, response, text, started, init.method + ' ' + url); }); })
        .catch(function (error) { region.textContent = ''; region.appendChild(el('p', { 'class': 'bad', text: 'The request failed: ' + error.message })); })
        .then(function () { send.disabled = false; });
    });
    return form;
  }

  function operationDetails(path, method, op) {
    var id = 'op-' + (op.operationId || uid('op'));
    var details = el('details', { 'class': 'op', id: id, 'data-search': (method + ' ' + path + ' ' + (op.summary || '') + ' ' + (op.operationId || '')).toLowerCase() }, [
      el('summary', {}, [
        el('span', { 'class': 'method m-' + method, text: method.toUpperCase() }),
        el('code', { 'class': 'path', text: path }),
        el('span', { 'class': 'summary-text', text: op.summary || '' }),
      ]),
    ]);
    var body = el('div', { 'class': 'op-body' });
    paragraphs(op.description).forEach(function (p) { body.appendChild(p); });
    body.appendChild(el('p', {}, securityText(op)));
    if (op.parameters && op.parameters.length) {
      body.appendChild(el('h3', { text: 'Parameters' }));
      body.appendChild(parametersTable(op.parameters));
    }
    if (op.requestBody) {
      body.appendChild(el('h3', { text: 'Request body' + (op.requestBody.required ? '' : ' (optional)') }));
      body.appendChild(schemaBlock(op.requestBody.content['application/json'].schema));
    }
    body.appendChild(el('h3', { text: 'Responses' }));
    body.appendChild(responsesList(op));
    var success = Object.keys(op.responses).filter(function (s) { return s.charAt(0) === '2'; })[0];
    var successContent = success && op.responses[success].content;
    if (successContent) body.appendChild(schemaBlock(successContent['application/json'].schema));
    body.appendChild(tryForm(path, method, op));
    details.appendChild(body);
    return details;
  }

  function render(spec) {
    doc = spec;
    document.getElementById('version').textContent = spec.info.version;
    document.title = spec.info.title + ' ' + spec.info.version + ' — reference';
    main.textContent = '';
    var intro = el('section', { 'class': 'intro', 'aria-label': 'About this API' }, [el('p', {}, inline(spec.info.summary || ''))].concat(paragraphs(spec.info.description)));
    main.appendChild(intro);
    var navList = el('ul');
    var byTag = {};
    Object.keys(spec.paths).forEach(function (path) {
      METHODS.forEach(function (method) {
        var op = spec.paths[path][method];
        if (!op) return;
        var tag = (op.tags && op.tags[0]) || 'Other';
        (byTag[tag] = byTag[tag] || []).push({ path: path, method: method, op: op });
      });
    });
    var tags = (spec.tags || []).map(function (t) { return t.name; });
    Object.keys(byTag).forEach(function (t) { if (tags.indexOf(t) < 0) tags.push(t); });
    tags.forEach(function (tagName) {
      var ops = byTag[tagName] || [];
      if (!ops.length) return;
      var tag = (spec.tags || []).filter(function (t) { return t.name === tagName; })[0] || {};
      var sectionId = 'tag-' + tagName.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      var section = el('section', { 'class': 'tag', 'aria-labelledby': sectionId + '-h' }, [el('h2', { id: sectionId + '-h', text: tagName })]);
      section.id = sectionId;
      if (tag.description) section.appendChild(el('p', {}, inline(tag.description)));
      var sub = el('ul');
      ops.forEach(function (entry) {
        var details = operationDetails(entry.path, entry.method, entry.op);
        section.appendChild(details);
        sub.appendChild(el('li', { 'data-for': details.id }, [el('a', { href: '#' + details.id, text: entry.method.toUpperCase() + ' ' + entry.path })]));
      });
      main.appendChild(section);
      navList.appendChild(el('li', {}, [el('a', { href: '#' + sectionId, text: tagName }), sub]));
    });
    var schemas = el('section', { 'class': 'tag', id: 'schemas', 'aria-labelledby': 'schemas-h' }, [el('h2', { id: 'schemas-h', text: 'Schemas' })]);
    Object.keys(spec.components.schemas).forEach(function (name) {
      var block = schemaBlock({ $ref: '#/components/schemas/' + name });
      var details = el('details', { 'class': 'op', id: 'schema-' + name }, [el('summary', {}, [el('code', { 'class': 'path', text: name })]), el('div', { 'class': 'op-body' }, [block])]);
      schemas.appendChild(details);
    });
    main.appendChild(schemas);
    navList.appendChild(el('li', {}, [el('a', { href: '#schemas', text: 'Schemas' })]));
    nav.textContent = '';
    nav.appendChild(navList);
    openFromHash();
  }

  /** A link to an operation or a schema opens it and moves the focus there. */
  function openFromHash() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    if (target.tagName === 'DETAILS') {
      target.open = true;
      var summary = target.querySelector('summary');
      if (summary) summary.focus();
    }
    target.scrollIntoView();
  }

  function applyFilter() {
    var words = filterInput.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    document.querySelectorAll('details.op[data-search]').forEach(function (details) {
      var match = words.every(function (w) { return details.getAttribute('data-search').indexOf(w) >= 0; });
      details.hidden = !match;
      var link = nav.querySelector('[data-for="' + details.id + '"]');
      if (link) link.hidden = !match;
      if (match) shown += 1;
    });
    document.querySelectorAll('section.tag[id^="tag-"]').forEach(function (section) {
      section.hidden = !section.querySelector('details.op:not([hidden])');
    });
    filterStatus.textContent = words.length ? shown + ' operations match' : '';
  }

  document.getElementById('token-toggle').addEventListener('click', function (event) {
    var showing = tokenInput.type === 'text';
    tokenInput.type = showing ? 'password' : 'text';
    event.currentTarget.setAttribute('aria-pressed', String(!showing));
    event.currentTarget.textContent = showing ? 'Show' : 'Hide';
  });
  filterInput.addEventListener('input', applyFilter);
  window.addEventListener('hashchange', openFromHash);

  fetch(SPEC_URL, { headers: { accept: 'application/json' } })
    .then(function (response) {
      if (!response.ok) throw new Error(SPEC_URL + ' answered ' + response.status);
      return response.json();
    })
    .then(render)
    .catch(function (error) {
      main.textContent = '';
      main.appendChild(el('p', { role: 'alert', 'class': 'bad', text: 'Could not load the API description: ' + error.message }));
    });
})();
`;

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tolk API reference</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the operations</a>
<header>
<h1>Tolk API reference <span id="version" class="hint"></span></h1>
<div class="controls">
<div class="field wide">
<label for="token">Bearer token</label>
<div class="row"><input id="token" type="password" autocomplete="off" spellcheck="false" aria-describedby="token-hint"><button type="button" id="token-toggle" class="secondary" aria-pressed="false" aria-controls="token">Show</button></div>
<p id="token-hint" class="hint">An access token (from signup, login or refresh) or a project API token (tolk_…). The forms below send it as Authorization: Bearer to operations that need one; it stays in this page only.</p>
</div>
<div class="field">
<label for="filter">Filter operations</label>
<input id="filter" type="search" autocomplete="off" aria-describedby="filter-status">
<p id="filter-status" class="hint" role="status"></p>
</div>
</div>
</header>
<div class="layout">
<nav id="nav" aria-label="Operations by tag"></nav>
<main id="main" tabindex="-1"><p role="status">Loading the API description…</p></main>
</div>
<script>${SCRIPT}</script>
</body>
</html>
`;

/**
 * The page and the headers it is served with: the Content-Security-Policy allows exactly its own
 * inline style and script (by hash) and requests to this origin, and nothing from anywhere else.
 */
export const DOCS_PAGE = {
  html: HTML,
  headers: {
    'Content-Security-Policy': [
      "default-src 'none'",
      `script-src ${sha256(SCRIPT)}`,
      `style-src ${sha256(STYLE)}`,
      "connect-src 'self'",
      "img-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  },
} as const;
