// The German catalogue addresses the reader one way only: formally ("Sie", "Ihr"), never "du".
// A word counts only as a whole word: "Dummy", "direkt", "Ordner" or
// "Kundin" never match. Informal imperatives ("Installiere", "Führe … aus") are caught by their
// common stems, since they carry no pronoun.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const de = JSON.parse(readFileSync(join(__dirname, '../../../public/_locales/de/messages.json'), 'utf8')) as Record<string, { message: string }>;

const INFORMAL = /(?<!\p{L})(du|dein|deine|deinen|deinem|deiner|deines|dich|dir|euch|euer|eure|euren|eurem|eurer|eures)(?!\p{L})/iu;
const INFORMAL_IMPERATIVE =
  /(?<!\p{L})(installiere|führe|kreuze|öffne|wähle|klicke|starte|kopiere|schalte|füge|lade|nimm|entferne|erlaube|prüfe|gib|lies|geh|gehe|trage|speichere|vergleiche)(?!\p{L})(?!\s+Sie\b)/iu;

/** The informal words of one message, for a readable failure. */
function informalWords(message: string): string[] {
  const out: string[] = [];
  for (const re of [INFORMAL, INFORMAL_IMPERATIVE]) {
    const m = re.exec(message);
    if (m?.[1]) out.push(m[1]);
  }
  return out;
}

describe('German voice', () => {
  it('finds the informal forms it is meant to find, and not words that merely contain them', () => {
    expect(informalWords('Wenn du es ausschaltest')).toEqual(['du']);
    expect(informalWords('die Skills deiner Organisation')).toEqual(['deiner']);
    expect(informalWords('Installiere es mit dem Befehl unten')).toEqual(['Installiere']);
    expect(informalWords('Dummy-Daten, direkt im Ordner, Kundendienst, Dirigent, Sudoku')).toEqual([]);
    expect(informalWords('Installieren Sie es; prüfen Sie dann erneut')).toEqual([]);
  });

  it('addresses the reader as "Sie" in every message', () => {
    const found = Object.entries(de)
      .map(([key, entry]) => ({ key, words: informalWords(entry.message) }))
      .filter((e) => e.words.length > 0);
    expect(found).toEqual([]);
  });
});
