/** Where the chat is kept in `localStorage`. Bump when the stored shape changes; older data is then ignored, never misread. */
export const CHAT_STORAGE_KEY = 'elicit-chat/state/v1'
