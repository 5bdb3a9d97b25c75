// Which engine turns a session's transcript into work: `grounded-ai` when a chat model is
// configured (EXTRACTION_ENGINE auto or grounded-ai), else `extractive`. A grounded-ai run that
// fails (endpoint down, invalid answer) falls back to extractive for that run and says why.
import type { AppDeps } from '../../platform/deps.ts'
import { LlmError, workModel } from '../../platform/llm/chat.ts'
import { extractiveEngine, type ExtractionInput, type ExtractionResult } from './engine/index.ts'
import { groundedAiEngine } from './grounded.ts'

export type EngineRun = { result: ExtractionResult; engine: 'extractive' | 'grounded-ai'; fallbackReason?: string }

export async function runEngine(deps: AppDeps, input: ExtractionInput): Promise<EngineRun> {
  const model = workModel(deps)
  if (model) {
    try {
      return { result: await groundedAiEngine(model).extract(input), engine: 'grounded-ai' }
    } catch (error) {
      if (!(error instanceof LlmError)) throw error
      return { result: await extractiveEngine.extract(input), engine: 'extractive', fallbackReason: `grounded-ai failed (${error.message.slice(0, 300)}); this run used the extractive engine` }
    }
  }
  return { result: await extractiveEngine.extract(input), engine: 'extractive' }
}
