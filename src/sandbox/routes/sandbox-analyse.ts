import { IdempotencyHeaders, Ok } from '../../api/schemas/common.js';
import { errors } from '../../api/schemas/responses.js';
import { AnalyseBody, AnalysisPreview, Instruction, InstructionBody } from '../../api/schemas/sandbox.js';
import { previewAnalysis, previewInstruction } from '../../engine/inbound/preview.js';
import { type App, type RouteDeps, ok } from './route.js';

/** `POST /sandbox/analyse`: the sandbox's analyser on one narration, moving no money. */
export function sandboxAnalyseRoutes(app: App, { sandbox }: RouteDeps): void {
  app.post(
    '/sandbox/analyse',
    {
      schema: {
        tags: ['Sandbox'],
        summary: 'Analyse a narration as an inbound payment would be, and say where it would go; no money moves',
        headers: IdempotencyHeaders,
        body: AnalyseBody,
        response: { 200: Ok(AnalysisPreview), ...errors(404) },
      },
    },
    // Outside any transaction: a model-backed analyser may take seconds, and this writes nothing of the developer's.
    async (request) => ok(await previewAnalysis(sandbox.db, request.env, request.developerId, request.body)),
  );
  app.post(
    '/sandbox/instruction',
    {
      schema: {
        tags: ['Sandbox'],
        summary:
          "Read a wallet's system_prompt into the rules the analyser applies, and list what it did not understand",
        headers: IdempotencyHeaders,
        body: InstructionBody,
        response: { 200: Ok(Instruction), ...errors(400, 404) },
      },
    },
    async (request) => ok(await previewInstruction(sandbox.db, request.developerId, request.body)),
  );
}
