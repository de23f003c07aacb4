import { describe, expect, it } from 'vitest'
import { selectChatModel } from './select-model'

describe('selectChatModel', () => {
  it('picks the offline model without an API key', () => {
    for (const env of [{}, { OPENAI_API_KEY: '' }, { OPENAI_API_KEY: '  ', OPENAI_MODEL: 'gpt-4o' }]) {
      const { model, name } = selectChatModel({ env })
      expect(model.provider).toBe('offline')
      expect(model.modelId).toBe('offline-assistant')
      expect(name).toBe('offline')
    }
  })

  it('picks the OpenAI chat-completions model with a key', () => {
    const { model, name } = selectChatModel({ env: { OPENAI_API_KEY: 'sk-test' } })
    expect(model.provider).toBe('openai.chat')
    expect(model.modelId).toBe('gpt-4o-mini')
    expect(name).toBe('openai:gpt-4o-mini')
  })

  it('uses OPENAI_MODEL and OPENAI_BASE_URL', () => {
    const { model, name } = selectChatModel({
      env: { OPENAI_API_KEY: 'ollama', OPENAI_MODEL: 'llama3.1', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
    })
    expect(model.modelId).toBe('llama3.1')
    expect(name).toBe('openai:llama3.1')
    expect(model.specificationVersion).toBe('v3')
  })
})
