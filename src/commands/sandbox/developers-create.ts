import type { Command } from '../../cli/command.js';
import { SEEDED_HEADER } from '../../api/headers.js';
import { check } from '../../client/validate.js';
import type { Io } from '../../cli/io.js';
import { action, sandboxCommand, examples } from '../../cli/options.js';
import { credentialView } from '../../cli/output/views.js';
import { fitted } from '../../text/wrap.js';

/** A creation whose answer never came back may have made the developer, whose key only that answer held. */
const BEFORE_REPEATING =
  'if it made the developer, its key was in the answer that was lost, and the sandbox never shows a key again: repeat it to make another';

/** Said on stderr, whatever the output format: the developer just made is on a sandbox anyone with the seed can read the ids of. */
const SEEDED_WARNING =
  'Warning: this sandbox is seeded (--seed): ' +
  "anyone who knows the seed can derive every id and account number in it, this developer's too. " +
  "A seeded sandbox is for one team's own CI job: do not share it with other developers.\n";

export function developersCreateCommand(): Command {
  return sandboxCommand('create')
    .argument('<business_name>', "business name, used in its wallets' account names")
    .addHelpText(
      'after',
      examples(
        'ledger sandbox developers create "Acme Pay"',
        'OTHER_KEY=$(ledger sandbox developers create "Acme Pay" --quiet)',
      ),
    )
    .action(
      action(async (io: Io, businessName: string) => {
        const body = check('DeveloperBody', { business_name: businessName }, { business_name: '<business_name>' });
        let seeded = false;
        const onHeaders = (headers: Record<string, unknown>) => (seeded = headers[SEEDED_HEADER] === 'true');
        await io.show(
          await io
            .client()
            .sandbox('POST', '/sandbox/developers', { body, beforeRepeating: BEFORE_REPEATING, onHeaders }),
          credentialView,
        );
        if (seeded) io.stderr.write(fitted(io.stderr, SEEDED_WARNING));
      }),
    );
}
