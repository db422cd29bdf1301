/** OPTION attributes have a fixed list of choices (colour); VALUE attributes carry free values (height in cm). */
export enum AttributeType {
  OPTION = 'OPTION',
  VALUE = 'VALUE',
}
