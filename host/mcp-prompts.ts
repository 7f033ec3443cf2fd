// What `skillpin mcp` offers the MCP clients people run today (docs/desktop.md, section 4.2):
// every skill the Skills extension serves, also as a prompt (its SKILL.md with a line saying where
// it came from and that Skillpin verified it), and two read-only tools, one that lists the skills
// and one that reads a skill's file. Nothing is offered that the Skills extension would not serve:
// the same catalog (buildCatalog: every byte checked, the same confirmation rule), and every file
// is read and checked against its approved digest again just before it is returned.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { slug } from '../lib/desktop/protocol/names';
import { approvalOf, buildCatalog, originLabel, type ServedSkill } from './catalog';
import { contentOf, mimeOf } from './mime';
import type { Mirror } from './mirror';

export const LIST_TOOL = 'list_skills';
export const READ_TOOL = 'read_skill_file';

/** Each served skill under a prompt name: its frontmatter name, with its site (and its root's hash) when that name is not unique. */
export function promptNames(skills: readonly ServedSkill[]): Map<string, ServedSkill> {
  const count = new Map<string, number>();
  for (const s of skills) count.set(s.frontmatter.name as string, (count.get(s.frontmatter.name as string) ?? 0) + 1);
  const out = new Map<string, ServedSkill>();
  for (const s of skills) {
    const name = s.frontmatter.name as string;
    if (count.get(name) === 1) {
      out.set(name, s);
      continue;
    }
    const segments = s.root.slice('skill://'.length).split('/');
    const hash = segments.length > 2 ? `-${segments[1]}` : '';
    // The label is ASCII already (a URL's host); the whole of it is kept, however long.
    out.set(`${name}-${slug(originLabel(s.record.origin), Number.POSITIVE_INFINITY)}${hash}`, s);
  }
  return out;
}

const VERIFIED: Record<string, string> = {
  signed: "verified by Skillpin: signed with the site's key you pinned",
  'digest-only': 'verified by Skillpin: it matches the digest the site published (the site did not sign it)',
  unverified: 'not verified by Skillpin: the site declared no digest, and you approved these bytes after a warning',
};

/** The line put before a skill's text: where it came from, how Skillpin checked it, and that it is the site's text, not the user's. */
export function provenanceLine(skill: ServedSkill): string {
  const r = skill.record;
  const how = VERIFIED[r.verification] ?? r.verification;
  return `[Skillpin] Skill "${skill.frontmatter.name as string}" from ${r.origin} (${r.url}), ${how}; approved ${new Date(r.approvedAt).toISOString()}. Its instructions come from that site, not from the user.`;
}

function summaryOf(name: string, skill: ServedSkill): Record<string, unknown> {
  const r = skill.record;
  return { name, description: skill.frontmatter.description, uri: skill.uri, ...approvalOf(r), files: r.files.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256 })) };
}

function served(mirror: Mirror, name: unknown): ServedSkill {
  if (typeof name !== 'string') throw new McpError(ErrorCode.InvalidParams, 'The skill name must be a string.');
  const skill = promptNames(buildCatalog(mirror).skills).get(name);
  if (skill === undefined)
    throw new McpError(
      ErrorCode.InvalidParams,
      `No skill named "${name}" is served: it is not in the mirror, its files do not match the approved digests, or it needs a confirmation that was not given.`,
    );
  return skill;
}

const READ_SCHEMA = {
  type: 'object' as const,
  properties: {
    skill: { type: 'string', description: `The skill's name, as ${LIST_TOOL} gives it.` },
    path: { type: 'string', description: 'The file path inside the skill, e.g. "SKILL.md" or "references/REFERENCE.md".' },
  },
  required: ['skill', 'path'],
  additionalProperties: false,
};

function callTool(mirror: Mirror, name: string, args: Record<string, unknown> | undefined) {
  if (name === LIST_TOOL) {
    const skills = [...promptNames(buildCatalog(mirror).skills)].map(([n, s]) => summaryOf(n, s));
    return { content: [{ type: 'text' as const, text: JSON.stringify({ skills }, null, 2) }], structuredContent: { skills } };
  }
  if (name !== READ_TOOL) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${name}.`);
  const skill = served(mirror, args?.skill);
  const path = args?.path;
  if (typeof path !== 'string' || !skill.record.files.some((f) => f.path === path)) {
    return { isError: true, content: [{ type: 'text' as const, text: `The skill has no file ${JSON.stringify(path)}; ${LIST_TOOL} lists its files.` }] };
  }
  // Read and checked against its approved digest now.
  const bytes = mirror.verifiedFile(skill.record, path);
  if (bytes === null) return { isError: true, content: [{ type: 'text' as const, text: `${path} is not served: its bytes on disk do not match the approved digest.` }] };
  // The provenance first, then the file exactly as approved (text, or an embedded resource for bytes).
  const content = contentOf(path, bytes);
  const resource = { uri: `${skill.root}/${path}`, mimeType: mimeOf(path) };
  const file = 'text' in content ? { type: 'text' as const, text: content.text } : { type: 'resource' as const, resource: { ...resource, blob: content.blob } };
  return { content: [{ type: 'text' as const, text: provenanceLine(skill) }, file] };
}

/** Adds prompts and the two tools to the server. */
export function addPromptsAndTools(server: Server, mirror: Mirror): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [...promptNames(buildCatalog(mirror).skills)].map(([name, s]) => ({
      name,
      title: `${s.frontmatter.name as string} (${s.record.origin})`,
      description: s.frontmatter.description as string,
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const skill = served(mirror, request.params.name);
    const bytes = mirror.verifiedFile(skill.record, 'SKILL.md');
    if (bytes === null) throw new McpError(ErrorCode.InvalidParams, 'The skill is not served: its SKILL.md on disk does not match the approved digest.');
    const text = `${provenanceLine(skill)}\n\n${new TextDecoder('utf-8', { fatal: false }).decode(bytes)}`;
    return { description: skill.frontmatter.description as string, messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] };
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: LIST_TOOL,
        title: 'List approved skills',
        description: 'Lists the skills verified and approved in Skillpin that this server serves: name, description, origin site, how Skillpin verified it, and its files.',
        inputSchema: { type: 'object' as const, properties: {}, additionalProperties: false },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      {
        name: READ_TOOL,
        title: 'Read a file of an approved skill',
        description: "Reads one file of an approved skill by the skill's name and the file's path. The bytes are checked against the approved digest before they are returned.",
        inputSchema: READ_SCHEMA,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(mirror, request.params.name, request.params.arguments));
}

/** What of the mirror a listing depends on: each record's identity and revision (a change is told to the client). */
export function mirrorSignature(mirror: Mirror): string {
  try {
    return mirror
      .records()
      .map((r) => `${r.key} ${r.revision} ${r.confirmedRevision ?? ''} ${r.approvedAt}`)
      .sort()
      .join('\n');
  } catch {
    return '';
  }
}

/** Polls the mirror and tells the client when what it lists changed (prompts and resources). */
export function watchMirror(server: Server, mirror: Mirror, everyMs = 1000): () => void {
  let last = mirrorSignature(mirror);
  const timer = setInterval(() => {
    const now = mirrorSignature(mirror);
    if (now === last) return;
    last = now;
    void server.sendPromptListChanged().catch(() => undefined);
    void server.sendResourceListChanged().catch(() => undefined);
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
