export { GET, dynamic } from '../../route'
