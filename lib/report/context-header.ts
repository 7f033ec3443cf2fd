// The size of what Copy and Insert hand on follows the header the settings choose: a report holds the block's parts for both headers (SkillReport.contextParts), and the
// background sets contextSize and tokens from them whenever it answers with a report, so what the
// pages show is what lib/background/hand-off-routes.ts sends.
import type { OriginReport, SkillReport } from '../types';
import { estimateTokenCount } from '../verify/tokens';

/** A skill's contextSize and tokens with the short header, or the full one. */
export function withContextHeader(skill: SkillReport, shortHeader: boolean): SkillReport {
  const parts = skill.contextParts;
  if (!parts) return skill;
  const size = parts.skill + (shortHeader ? parts.shortHeader : parts.header);
  if (size === skill.contextSize) return skill;
  return { ...skill, contextSize: size, tokens: estimateTokenCount(size) };
}

/** The report with every skill's sizes for the header the settings choose. */
export function reportWithContextHeader<R extends OriginReport | null>(report: R, shortHeader: boolean): R {
  if (!report || report.skills.length === 0) return report;
  return { ...report, skills: report.skills.map((s) => withContextHeader(s, shortHeader)) };
}
