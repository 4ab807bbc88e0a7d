/**
 * The API reference at `/docs`: one self-contained page (no script, style or font from another
 * origin, so it works offline and behind a firewall) that reads `/openapi.json` and shows
 * every route with its parameters, body and answers, schemas resolved and folded.
 */
export const apiReferencePage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<style>
  :root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db33; --get: #2563eb; --post: #059669; --patch: #d97706; --delete: #dc2626; }
  body { margin: 0; font: 15px/1.5 system-ui, sans-serif; display: grid; grid-template-columns: 280px 1fr; min-height: 100vh; }
  nav { border-right: 1px solid var(--line); padding: 1rem; position: sticky; top: 0; height: 100vh; overflow: auto; box-sizing: border-box; }
  nav h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 1.2rem 0 .3rem; }
  nav a { display: block; color: inherit; text-decoration: none; padding: .15rem 0; font-size: .85rem; }
  nav a:hover, nav a:focus { text-decoration: underline; }
  main { padding: 1.5rem 2.5rem; max-width: 60rem; }
  section { border-bottom: 1px solid var(--line); padding: 1.2rem 0; }
  .method { font: 700 .75rem ui-monospace, monospace; padding: .15rem .45rem; border-radius: 4px; color: white; margin-right: .5rem; }
  .get { background: var(--get); } .post { background: var(--post); } .patch { background: var(--patch); } .delete { background: var(--delete); }
  code, pre { font-family: ui-monospace, monospace; font-size: .85rem; }
  pre { background: #8881; padding: .75rem; border-radius: 6px; overflow: auto; }
  table { border-collapse: collapse; width: 100%; font-size: .9rem; }
  td, th { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
  details > summary { cursor: pointer; color: var(--muted); }
  .status { font-weight: 600; }
</style>
</head>
<body>
<nav aria-label="Routes"><strong>API reference</strong><div id="toc">Loading…</div></nav>
<main id="routes"><p>Loading <code>/openapi.json</code>…</p></main>
<script>
const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
function resolve(doc, schema, seen = new Set()) {
  if (!schema || typeof schema !== "object") return schema;
  if (schema.$ref) {
    const name = schema.$ref.split("/").pop();
    if (seen.has(name)) return { title: name + " (recursive)" };
    return { title: name, ...resolve(doc, doc.components.schemas[name], new Set([...seen, name])) };
  }
  const out = Array.isArray(schema) ? [] : {};
  for (const [key, value] of Object.entries(schema)) out[key] = resolve(doc, value, seen);
  return out;
}
const schemaBlock = (doc, schema) => schema
  ? "<details><summary>Schema" + (schema.$ref ? " " + escape(schema.$ref.split("/").pop()) : "") + "</summary><pre>" + escape(JSON.stringify(resolve(doc, schema), null, 2)) + "</pre></details>"
  : "";
function render(doc) {
  const byTag = new Map();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const tag = (operation.tags || ["Other"])[0];
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push({ path, method, operation });
    }
  }
  let toc = "", body = "<h1>" + escape(doc.info.title) + "</h1><p>" + escape(doc.info.description || "") + "</p>";
  let index = 0;
  for (const [tag, routes] of byTag) {
    toc += "<h2>" + escape(tag) + "</h2>";
    for (const { path, method, operation } of routes) {
      const id = "route-" + index++;
      toc += '<a href="#' + id + '">' + method.toUpperCase() + " " + escape(path) + "</a>";
      const params = (operation.parameters || []).map((p) =>
        "<tr><td><code>" + escape(p.name) + "</code></td><td>" + escape(p.in) + (p.required ? ", required" : "") + "</td><td><code>" + escape(JSON.stringify(p.schema)) + "</code></td></tr>").join("");
      const requestSchema = operation.requestBody && operation.requestBody.content["application/json"] && operation.requestBody.content["application/json"].schema;
      const responses = Object.entries(operation.responses || {}).map(([status, response]) => {
        const content = response.content ? Object.entries(response.content)[0] : undefined;
        return '<li><span class="status">' + escape(status) + "</span> " + escape(response.description || "") + (content ? " <code>" + escape(content[0]) + "</code>" + schemaBlock(doc, content[1].schema) : "") + "</li>";
      }).join("");
      const curl = "curl -X " + method.toUpperCase() + " " + location.origin + path + (requestSchema ? " -H 'content-type: application/json' -d '{}'" : "");
      body += '<section id="' + id + '"><h3><span class="method ' + method + '">' + method.toUpperCase() + "</span><code>" + escape(path) + "</code></h3><p>" + escape(operation.summary || "") + "</p>" +
        (params ? "<table><tr><th>Parameter</th><th>In</th><th>Schema</th></tr>" + params + "</table>" : "") +
        (requestSchema ? "<h4>Body</h4>" + schemaBlock(doc, requestSchema) : "") +
        "<h4>Answers</h4><ul>" + responses + "</ul><pre>" + escape(curl) + "</pre></section>";
    }
  }
  document.getElementById("toc").innerHTML = toc;
  document.getElementById("routes").innerHTML = body;
}
fetch("openapi.json").then((r) => r.json()).then(render, (error) => {
  document.getElementById("routes").innerHTML = "<p>Could not load openapi.json: " + escape(error) + "</p>";
});
</script>
</body>
</html>
`;
