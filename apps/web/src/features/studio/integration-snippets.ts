import type { ChatbotType } from '@atelier/schemas/constants';

export const SNIPPET_LANGUAGES = ['curl', 'javascript', 'python'] as const;
export type SnippetLanguage = (typeof SNIPPET_LANGUAGES)[number];
export type Snippets = Record<SnippetLanguage, string>;

/** The steps of a chatbot's integration guide, by its type: each a snippet per language. */
export interface IntegrationGuide {
  /** OpenAI-compatible: any OpenAI client, the chatbot's id as the model. */
  openai: Snippets;
  /** Atelier's own calls: a message (simple, chatflow) or a workflow run and its events. */
  native: Snippets;
}

const KEY = '$ATELIER_API_KEY';
const json = (value: unknown) => JSON.stringify(value);
/** A curl body: pretty JSON inside single quotes (a quote in it closed, escaped and reopened). */
const curlData = (value: unknown) => `  -d '${JSON.stringify(value, null, 2).replace(/'/g, "'\\''")}'`;
/** A JavaScript string literal in single quotes. */
const jsString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const indent = (text: string, by: string) => text.replace(/\n/g, `\n${by}`);

/** What a first message says: a question, or a workflow's input fields as a JSON object. */
function exampleInputs(fields: readonly string[]): Record<string, string> {
  const names = fields.length > 0 ? fields : ['query'];
  return Object.fromEntries(names.map((n) => [n, n === 'query' ? 'Hello!' : `your ${n}`]));
}

function openAiSnippets(base: string, id: string, type: ChatbotType, fields: readonly string[]): Snippets {
  const content = type === 'workflow' ? json(exampleInputs(fields)) : 'Hello!';
  const messages = [{ role: 'user', content }];
  return {
    curl: [
      `curl -N ${base}/v1/chat/completions \\`,
      `  -H "Authorization: Bearer ${KEY}" \\`,
      `  -H 'Content-Type: application/json' \\`,
      curlData({ model: id, messages, stream: true, user: 'customer-42' }),
    ].join('\n'),
    javascript: [
      `import OpenAI from 'openai';`,
      ``,
      `const client = new OpenAI({ apiKey: process.env.ATELIER_API_KEY, baseURL: '${base}/v1' });`,
      `const stream = await client.chat.completions.create({`,
      `  model: '${id}',`,
      `  messages: [{ role: 'user', content: ${jsString(content)} }],`,
      `  stream: true,`,
      `  user: 'customer-42',`,
      `});`,
      `for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? '');`,
    ].join('\n'),
    python: [
      `import os`,
      `from openai import OpenAI`,
      ``,
      `client = OpenAI(api_key=os.environ["ATELIER_API_KEY"], base_url="${base}/v1")`,
      `stream = client.chat.completions.create(`,
      `    model="${id}",`,
      `    messages=[{"role": "user", "content": ${json(content)}}],`,
      `    stream=True,`,
      `    user="customer-42",`,
      `)`,
      `for chunk in stream:`,
      `    if chunk.choices:`,
      `        print(chunk.choices[0].delta.content or "", end="")`,
    ].join('\n'),
  };
}

function messageSnippets(base: string, fields: readonly string[]): Snippets {
  const inputs = Object.fromEntries(Object.entries(exampleInputs(fields)).filter(([k]) => k !== 'query'));
  const body = {
    user: 'customer-42',
    message: 'Hello!',
    ...(Object.keys(inputs).length > 0 ? { inputs } : {}),
    stream: false,
  };
  const pretty = JSON.stringify(body, null, 2);
  return {
    curl: [
      `curl ${base}/v1/chat-messages \\`,
      `  -H "Authorization: Bearer ${KEY}" \\`,
      `  -H 'Content-Type: application/json' \\`,
      curlData(body),
      `# Continue with "conversation_id" from the answer; "stream": true streams Atelier's events.`,
    ].join('\n'),
    javascript: [
      `const res = await fetch('${base}/v1/chat-messages', {`,
      `  method: 'POST',`,
      `  headers: { Authorization: \`Bearer \${process.env.ATELIER_API_KEY}\`, 'Content-Type': 'application/json' },`,
      `  body: JSON.stringify(${indent(pretty, '  ')}),`,
      `});`,
      `const { answer, conversation_id } = await res.json();`,
    ].join('\n'),
    python: [
      `import os, requests`,
      ``,
      `res = requests.post(`,
      `    "${base}/v1/chat-messages",`,
      `    headers={"Authorization": f"Bearer {os.environ['ATELIER_API_KEY']}"},`,
      `    json=${indent(pythonLiteral(pretty), '    ')},`,
      `)`,
      `print(res.json()["answer"])`,
    ].join('\n'),
  };
}

function workflowRunSnippets(base: string, fields: readonly string[]): Snippets {
  const body = { user: 'customer-42', inputs: exampleInputs(fields) };
  const pretty = JSON.stringify(body, null, 2);
  return {
    curl: [
      `curl ${base}/v1/workflows/runs \\`,
      `  -H "Authorization: Bearer ${KEY}" \\`,
      `  -H 'Content-Type: application/json' \\`,
      curlData(body),
      `# Follow the run (resume with the Last-Event-ID header):`,
      `curl -N "${base}/v1/runs/$RUN_ID/events?user=customer-42" \\`,
      `  -H "Authorization: Bearer ${KEY}"`,
    ].join('\n'),
    javascript: [
      `const headers = { Authorization: \`Bearer \${process.env.ATELIER_API_KEY}\`, 'Content-Type': 'application/json' };`,
      `const res = await fetch('${base}/v1/workflows/runs', {`,
      `  method: 'POST',`,
      `  headers,`,
      `  body: JSON.stringify(${indent(pretty, '  ')}),`,
      `});`,
      `const { run_id } = await res.json();`,
      `const run = await (await fetch(\`${base}/v1/runs/\${run_id}?user=customer-42\`, { headers })).json();`,
    ].join('\n'),
    python: [
      `import os, requests`,
      ``,
      `headers = {"Authorization": f"Bearer {os.environ['ATELIER_API_KEY']}"}`,
      `run = requests.post("${base}/v1/workflows/runs", headers=headers, json=${indent(pythonLiteral(pretty), '')}).json()`,
      `print(requests.get(f"${base}/v1/runs/{run['run_id']}", headers=headers, params={"user": "customer-42"}).json())`,
    ].join('\n'),
  };
}

/** JSON as a Python literal (the snippets hold only strings, objects and false). */
const pythonLiteral = (jsonText: string) =>
  jsonText.replace(/\bfalse\b/g, 'False').replace(/\btrue\b/g, 'True');

/**
 * The integration guide of a chatbot: the real API address and chatbot id, the key read from the
 * ATELIER_API_KEY environment variable; a workflow's snippets name its input fields when known.
 */
export function integrationGuide(
  apiUrl: string,
  chatbot: { id: string; type: ChatbotType },
  inputFields: readonly string[] = [],
): IntegrationGuide {
  const base = apiUrl.replace(/\/+$/, '');
  return {
    openai: openAiSnippets(base, chatbot.id, chatbot.type, inputFields),
    native:
      chatbot.type === 'workflow'
        ? workflowRunSnippets(base, inputFields)
        : messageSnippets(base, inputFields),
  };
}
