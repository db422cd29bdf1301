/** Legal forms of a connected business and the structures each allows (the provider's vocabulary). */
export const BUSINESS_STRUCTURES: Readonly<Record<string, readonly string[]>> = {
  individual: ['sole_proprietorship', 'single_member_llc'],
  company: [
    'private_company',
    'public_company',
    'private_partnership',
    'public_partnership',
    'limited_liability_partnership',
    'multi_member_llc',
    'unincorporated_association',
  ],
  non_profit: ['incorporated_non_profit', 'unincorporated_non_profit'],
  government_entity: ['governmental_unit', 'government_instrumentality', 'public_company'],
};

/** ISO 18245 merchant category codes that fit a plant and garden marketplace, with their official names. */
export const MERCHANT_CATEGORY_CODES: Readonly<Record<string, string>> = {
  '0763': 'Agricultural Cooperatives',
  '0780': 'Landscaping and Horticultural Services',
  '4215': 'Courier Services – Air and Ground, Freight Forwarders',
  '5193': "Florists' Supplies, Nursery Stock and Flowers",
  '5200': 'Home Supply Warehouse Stores',
  '5211': 'Lumber and Building Materials Stores',
  '5231': 'Glass, Paint, and Wallpaper Stores',
  '5251': 'Hardware Stores',
  '5261': 'Lawn and Garden Supply Stores, Including Nurseries',
  '5300': 'Wholesale Clubs',
  '5310': 'Discount Stores',
  '5311': 'Department Stores',
  '5331': 'Variety Stores',
  '5399': 'Miscellaneous General Merchandise Stores',
  '5411': 'Grocery Stores, Supermarkets',
  '5499': 'Miscellaneous Food Stores – Convenience Stores and Specialty Markets',
  '5712': 'Furniture, Home Furnishings, and Equipment Stores',
  '5719': 'Miscellaneous Home Furnishing Specialty Stores',
  '5912': 'Drug Stores and Pharmacies',
  '5942': 'Book Stores',
  '5945': 'Hobby, Toy, and Game Shops',
  '5970': 'Artist Supply and Craft Shops',
  '5992': 'Florists',
  '5995': 'Pet Shops, Pet Foods, and Supplies Stores',
  '5999': 'Miscellaneous and Specialty Retail Stores',
  '7299': 'Miscellaneous Personal Services',
  '7392': 'Management, Consulting, and Public Relations Services',
  '8398': 'Charitable and Social Service Organizations',
  '8641': 'Civic, Social, and Fraternal Associations',
  '8999': 'Professional Services',
};

export const BUSINESS_TYPES = Object.keys(BUSINESS_STRUCTURES);
