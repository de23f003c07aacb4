import { JoinWithCode } from '@/components/devices/JoinWithCode'

export const dynamic = 'force-dynamic'

/** `/join`, or `/join?code=ABCD-EFGH` from the link another browser showed (docs/devices.md). */
export default async function JoinPage({ searchParams }: { searchParams: Promise<{ code?: string | string[] }> }) {
  const { code } = await searchParams
  return (
    <main className="min-h-dvh bg-white dark:bg-zinc-950">
      <JoinWithCode initialCode={typeof code === 'string' ? code.slice(0, 32) : ''} />
    </main>
  )
}
