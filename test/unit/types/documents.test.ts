// The table of document kinds of lib/types/documents.ts (DOCUMENTS): every kind has a row, every listing a
// parser, every row its words in both catalogues, and the rows agree with each other.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LISTING_PARSERS } from '../../../lib/probe/listings';
import { CANDIDATE_SOURCES, DOCUMENT_KINDS, DOCUMENTS, isArtifactKind, type DocumentKind } from '../../../lib/types';

const ROOT = join(__dirname, '../../..');

/** The members of the DocumentKind union as lib/types/documents.ts spells them (the type is gone at run time). */
function declaredKinds(): string[] {
  const text = readFileSync(join(ROOT, 'lib/types/documents.ts'), 'utf8');
  const union = /export type DocumentKind =([^;]*);/.exec(text)?.[1] ?? '';
  return [...union.matchAll(/'([^']+)'/g)].map((m) => m[1] as string);
}

function catalogue(locale: string): Record<string, { message?: unknown }> {
  return JSON.parse(readFileSync(join(ROOT, 'public/_locales', locale, 'messages.json'), 'utf8')) as Record<string, { message?: unknown }>;
}

describe('DOCUMENTS', () => {
  it('has one row for every DocumentKind, and no row of another kind', () => {
    const declared = declaredKinds();
    expect(declared.length).toBeGreaterThan(0);
    expect([...DOCUMENT_KINDS].sort()).toEqual([...declared].sort());
  });

  it('has a parser for every listing, and none for another kind', () => {
    expect(Object.keys(LISTING_PARSERS).sort()).toEqual([...CANDIDATE_SOURCES].sort());
    for (const kind of CANDIDATE_SOURCES) expect(typeof LISTING_PARSERS[kind], kind).toBe('function');
  });

  it('names a label that both catalogues hold in words, one per kind', () => {
    const labels = DOCUMENT_KINDS.map((k) => DOCUMENTS[k].label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const locale of ['en', 'de']) {
      const words = catalogue(locale);
      const missing = labels.filter((l) => !(Object.hasOwn(words, l) && typeof words[l]?.message === 'string' && words[l].message !== ''));
      expect(missing, locale).toEqual([]);
    }
  });

  it('gives each listing its own merge rank, and a rank to listings only', () => {
    const ranks = CANDIDATE_SOURCES.map((k) => DOCUMENTS[k].rank);
    expect(ranks.every((r) => Number.isInteger(r))).toBe(true);
    expect(new Set(ranks).size).toBe(ranks.length);
    for (const k of DOCUMENT_KINDS) if (DOCUMENTS[k].role !== 'listing') expect(DOCUMENTS[k].rank, k).toBeNull();
  });

  it('places every discovery document at its own path on the origin, and no artifact', () => {
    const paths: string[] = [];
    for (const k of DOCUMENT_KINDS) {
      const { path } = DOCUMENTS[k];
      if (isArtifactKind(k)) expect(path, k).toBeNull();
      else {
        expect(path, k).toMatch(/^\/[^?#]+$/);
        paths.push(path as string);
      }
    }
    expect(new Set(paths).size).toBe(paths.length);
    expect(DOCUMENT_KINDS.filter(isArtifactKind)).toEqual(['skill-md', 'archive']);
  });

  it('asks for a listing in place of another listing only, one that stands on its own', () => {
    for (const k of DOCUMENT_KINDS) {
      const instead = DOCUMENTS[k].insteadOf;
      if (instead === null) continue;
      expect(DOCUMENTS[k].role, k).toBe('listing');
      const other: DocumentKind = instead.kind;
      expect(DOCUMENTS[other].role, k).toBe('listing');
      expect(DOCUMENTS[other].insteadOf, k).toBeNull();
    }
  });

  it('caps every kind at a positive whole number of bytes, under one Accept header and one way of sniffing', () => {
    for (const k of DOCUMENT_KINDS) {
      const row = DOCUMENTS[k];
      expect(Number.isSafeInteger(row.cap) && row.cap > 0, k).toBe(true);
      expect(row.accept, k).toMatch(/\*\/\*;q=0\.1$/);
      expect(['json', 'text'], k).toContain(row.sniff);
      expect(row.title, k).not.toBe('');
    }
  });
});
