/** Answers of a model-backed analyser, kept per developer and (narration, prompt, model) so a replay gets the same one. */
export interface AnalysisCacheTable {
  /** Whose question it was: no other developer's payment reads this answer. */
  developer_id: string;
  /** SHA-256 of the narration, the system_prompt and the model. */
  key: string;
  model: string;
  /** The model's validated answer, as JSON. */
  answer: string;
  created_at: string;
}
