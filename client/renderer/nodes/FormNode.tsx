import type { FormNode } from '../../../schemas/screen'
import { FormView } from '../form/FormView'

export function FormNodeView({ node }: { node: FormNode }) {
  return <FormView form={node} />
}
