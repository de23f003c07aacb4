export { AnswerBar, promptOf, QuestionPanel } from './QuestionPanel'
export { ChoiceList } from './ChoiceList'
export { TextField } from './TextField'
export { QuietButton } from '../QuietButton'
