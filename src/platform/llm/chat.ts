// An OpenAI-compatible chat completions client (OpenAI, Groq, vLLM, llama.cpp server, Ollama's
// /v1, …) for structured answers: the reply must be JSON matching a schema, checked here with
// typebox, whatever the server promised. Every failure is an LlmError; callers fall back.
import type { Static, TSchema } from 'typebox'
import { Value } from 'typebox/value'

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string }

export class LlmError extends Error {
  override name = 'LlmError'
}

export type ChatClient = {
  readonly model: string
  json<S extends TSchema>(messages: ChatMessage[], schema: S, name: string): Promise<Static<S>>
}

export function createChatClient(options: { baseUrl: string; apiKey?: string; model: string; timeoutMs: number }): ChatClient {
  const endpoint = `${options.baseUrl.replace(/\/v1$/, '')}/v1/chat/completions`
  return {
    model: options.model,
    async json<S extends TSchema>(messages: ChatMessage[], schema: S, name: string): Promise<Static<S>> {
      let response: Response
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          signal: AbortSignal.timeout(options.timeoutMs),
          headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify({
            model: options.model, messages, temperature: 0,
            response_format: { type: 'json_schema', json_schema: { name, strict: true, schema } },
          }),
        })
      } catch (error) {
        throw new LlmError(`the chat endpoint ${endpoint} could not be reached: ${(error as Error).message}`)
      }
      if (!response.ok) throw new LlmError(`the chat endpoint answered ${response.status}: ${(await response.text()).slice(0, 300)}`)
      const body = await response.json().catch(() => undefined) as { choices?: { message?: { content?: string | null } }[] } | undefined
      const content = body?.choices?.[0]?.message?.content
      if (typeof content !== 'string') throw new LlmError('the chat endpoint answered without a message')
      let parsed: unknown
      try {
        parsed = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ''))
      } catch {
        throw new LlmError('the model answered with something that is not JSON')
      }
      if (!Value.Check(schema, parsed)) throw new LlmError(`the model's JSON does not match ${name}`)
      return parsed as Static<S>
    },
  }
}

/** The chat model that work extraction and the takeover brief use: none when EXTRACTION_ENGINE is extractive. */
export const workModel = (deps: { config: { extractionEngine: string }; llm: ChatClient | undefined }) =>
  (deps.config.extractionEngine === 'extractive' ? undefined : deps.llm)
