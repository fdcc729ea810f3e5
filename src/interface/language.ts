import { Injectable } from '@nestjs/common';
import { bindList, DatabaseService } from '../database/database.service';
import { EntityTable, type RowOf } from '../database/entity-table';
import { LanguageEntity } from './entities/language.entity';
import { LANGUAGE_LABEL, languageCandidates, pickFromCandidates } from '../template/language';

/** The text of a resource (`res`: JSON of language code → text) for the first candidate that has one, else any. */
export function pickTranslation(res: string, candidates: readonly string[]): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(res);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  return pickFromCandidates(parsed as Record<string, unknown>, candidates);
}

const LABEL = LANGUAGE_LABEL;
const OTHER_ECOSYSTEM = /^@(\d{1,19})(.+)$/;

/** Language resources (`1_languages`) substituted into texts such as section titles. */
const LANGUAGES = new EntityTable(LanguageEntity);
const RESOURCE = LANGUAGES.select('res');
const NAMED_RESOURCE = LANGUAGES.select('name', 'res');

@Injectable()
export class LanguageResources {
  constructor(private readonly db: DatabaseService) {}

  /**
   * The translations of one resource of an ecosystem (language code, lower case → text), undefined when the
   * ecosystem has no such resource or its `res` is not a JSON object.
   */
  async translations(ecosystem: bigint, name: string): Promise<Record<string, string> | undefined> {
    if (name.includes('\0')) return undefined;
    const row = await this.db.one<RowOf<typeof RESOURCE>>(
      `SELECT ${RESOURCE} FROM ${LANGUAGES.name}
        WHERE ${LANGUAGES.column('ecosystem')} = $1 AND ${LANGUAGES.column('name')} = $2
        ORDER BY ${LANGUAGES.column('id')} LIMIT 1`,
      [ecosystem.toString(), name],
    );
    if (!row) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.res);
    } catch {
      return undefined;
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
    const texts: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [code, text] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof text === 'string') texts[code.toLowerCase()] = text;
    }
    return texts;
  }

  /**
   * Replaces every `$label$` of `text` with the resource `label` of `ecosystem` (`$@N label$`: of
   * ecosystem N) in the best language of `accept`; unknown labels stay as they are.
   */
  async substitute(text: string, ecosystem: bigint, accept: string | undefined): Promise<string> {
    const labels = [...text.matchAll(LABEL)].map((match) => labelOf(match[1], ecosystem));
    if (labels.length === 0) return text;
    const byEcosystem = new Map<string, Set<string>>();
    for (const { ecosystem: eco, name } of labels) {
      const names = byEcosystem.get(eco) ?? new Set<string>();
      names.add(name);
      byEcosystem.set(eco, names);
    }
    const candidates = languageCandidates(accept);
    const texts = new Map<string, string>();
    for (const [eco, names] of byEcosystem) {
      const params: unknown[] = [eco];
      const rows = await this.db.query<RowOf<typeof NAMED_RESOURCE>>(
        `SELECT ${NAMED_RESOURCE} FROM ${LANGUAGES.name}
          WHERE ${LANGUAGES.column('ecosystem')} = $1 AND ${LANGUAGES.column('name')} IN (${bindList([...names], params)})`,
        params,
      );
      for (const row of rows) {
        const translation = pickTranslation(row.res, candidates);
        if (translation !== undefined) texts.set(`${eco}/${row.name}`, translation);
      }
    }
    return text.replace(LABEL, (whole, label: string) => {
      const { ecosystem: eco, name } = labelOf(label, ecosystem);
      return texts.get(`${eco}/${name}`) ?? whole;
    });
  }
}

function labelOf(label: string, ecosystem: bigint): { ecosystem: string; name: string } {
  const other = OTHER_ECOSYSTEM.exec(label);
  return other
    ? { ecosystem: BigInt(other[1]).toString(), name: other[2] }
    : { ecosystem: ecosystem.toString(), name: label };
}
