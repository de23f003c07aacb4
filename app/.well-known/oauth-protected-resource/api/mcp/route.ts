export { GET } from '../../route'

export const dynamic = 'force-dynamic'
