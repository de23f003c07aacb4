export function UserMessage({ text }: { text: string }) {
  return (
    <article aria-label="You" data-testid="user-message" className="flex justify-end">
      <p className="max-w-[85%] whitespace-pre-wrap break-words rounded-2xl rounded-br-md bg-sky-700 px-4 py-2.5 text-[15px] leading-relaxed text-white shadow-sm dark:bg-sky-700 dark:text-white">
        {text}
      </p>
    </article>
  )
}
