import { describe, expect, it } from 'vitest'
import { toolVisibilityOf, visibleToApps, visibleToModel } from './tool-visibility'

describe('toolVisibilityOf (_meta.ui.visibility)', () => {
  it('absent or malformed means model and app; otherwise what is declared', () => {
    expect(toolVisibilityOf({})).toEqual(['model', 'app'])
    expect(toolVisibilityOf({ _meta: { ui: { visibility: 'app' } } })).toEqual(['model', 'app'])
    expect(toolVisibilityOf({ _meta: { ui: { visibility: ['app', 'other'] } } })).toEqual(['app'])
    expect(toolVisibilityOf({ _meta: { ui: { visibility: [] } } })).toEqual([])
  })

  it('an app-only tool is not the model’s; a model-only tool is not the app’s', () => {
    const appOnly = { _meta: { ui: { visibility: ['app'] } } }
    const modelOnly = { _meta: { ui: { visibility: ['model'] } } }
    expect([visibleToModel(appOnly), visibleToApps(appOnly)]).toEqual([false, true])
    expect([visibleToModel(modelOnly), visibleToApps(modelOnly)]).toEqual([true, false])
    expect([visibleToModel({}), visibleToApps({})]).toEqual([true, true])
  })
})
