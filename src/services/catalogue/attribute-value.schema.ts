import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { SchemaTypes, Types } from 'mongoose';

/** The values one product or SKU has for one attribute. */
@Schema({ _id: false })
export class AttributeValue {
  @Prop({ type: SchemaTypes.ObjectId, ref: 'Attribute', required: true }) attribute!: Types.ObjectId;
  @Prop({ type: [String], default: [] }) values!: string[];
}

export const AttributeValueSchema = SchemaFactory.createForClass(AttributeValue);
