export { askUntilValid, type AnswerCheck, type ValidAnswer } from './ask-until-valid'
export { defineOfflineSkill, type OfflineSkillFor } from './define-offline-skill'
export { CODE_ALPHABET, createCode, seededNumber, stableHash } from './seeded'
