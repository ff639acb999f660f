import type { Command } from '../../cli/command.js';
import { SilentFailure, EXIT } from '../../cli/errors.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import type { View } from '../../cli/output/views.js';

interface AuditReport {
  ok: boolean;
  checked: Record<string, number>;
  problems: { check: string; message: string }[];
}

const auditView: View = {
  kind: 'custom',
  quiet: (r: AuditReport) => (r.ok ? 'ok' : 'problems'),
  lines: (r: AuditReport, fmt) => [
    r.ok
      ? fmt.green('Audit clean: every invariant holds.')
      : fmt.red(`Audit found ${fmt.plural(r.problems.length, 'problem')}:`),
    ...r.problems.flatMap((p) => fmt.wrap(`  ${fmt.red('✗')} [${p.check}] ${p.message}`, 4)),
    fmt.dim(
      `Checked ${Object.entries(r.checked)
        .map(([k, v]) => fmt.plural(v, k.replace(/_/g, ' ')))
        .join(', ')}.`,
    ),
  ],
};

export function auditCommand(): Command {
  return sandboxCommand('audit')
    .addHelpText('after', examples('ledger sandbox audit', 'ledger sandbox audit --json'))
    .action(action(runAudit));
}

export async function runAudit(io: Io): Promise<void> {
  const report = await io.client().sandbox<AuditReport>('GET', '/sandbox/audit');
  await io.show(report, auditView);
  if (!report.ok) {
    // The one stderr line every failure has, so a script under --json or --quiet learns it too.
    const [{ fitted }, { plural }] = await Promise.all([import('../../text/wrap.js'), import('../../text/format.js')]);
    const checks = [...new Set(report.problems.map((p) => p.check))].join(', ');
    io.stderr.write(
      fitted(
        io.stderr,
        `Error [AUDIT_FAILED]: the audit found ${plural(report.problems.length, 'problems')} (${checks})\n`,
      ),
    );
    throw new SilentFailure(EXIT.REFUSED);
  }
}
