"""Labelled sentences written for this repository (fictional companies, our own words), kept apart
from every set the claim rules were tuned on, to check that the rules hold on text they have not seen.

Label 1: an environmental claim a verifier could check (something done, a figure with a unit, a
dated commitment, a certification, a property of the company's own products or sites). Label 0:
aspiration, definition, industry or policy context, navigation, a question, praise of staff.
"""

from __future__ import annotations

CLAIMS = (
    "Halvorsen Foods cut the water used per tonne of product at its Bergen dairy by 18% "
    "between 2021 and 2024.",
    "All of our distribution centres in Portugal have run on certified renewable "
    "electricity since January 2023.",
    "Marlow Textiles replaced the coal boilers at its dyeing plant with a biomass system last year.",
    "We have committed to reducing absolute Scope 1 and 2 emissions by 42% by 2030 from a 2020 base year.",
    "Our new headquarters in Lyon was awarded LEED Platinum certification in 2024.",
    "The Group diverted 96% of its construction waste from landfill during the reporting period.",
    "Since 2022, every bottle we sell in the UK has been made from 100% recycled plastic.",
    "Kestrel Logistics added 140 battery-electric vans to its urban delivery fleet in 2023.",
    "Our paints are now free of volatile organic compounds across the entire consumer range.",
    "We restored 320 hectares of peatland on land we own in the Scottish Highlands.",
    "Orrin Chemicals' three European sites are certified to ISO 14001.",
    "By 2027 we will phase out single-use plastic packaging from all our own-brand products.",
    "In 2024 the company installed rooftop solar panels at eleven of its warehouses.",
    "Greenhouse gas emissions from our operations fell to 58,000 tonnes of CO2e, "
    "down 12% on the previous year.",
    "Tallis Bank stopped financing new thermal coal mines in 2021.",
    "We switched our company car policy so that only electric or plug-in hybrid models can be ordered.",
    "Our Vantaa bakery now sends all of its food waste to a local anaerobic "
    "digestion plant that produces biogas.",
    "The Board approved a target to reach net zero across our value chain by 2045, validated by the "
    "Science Based Targets initiative.",
    "Brightwell Homes fits heat pumps rather than gas boilers in every house it has built since 2023.",
    "We planted 45,000 native trees along the river corridors next to our quarries in 2023.",
)

NON_CLAIMS = (
    "Climate change is one of the defining challenges of our time.",
    "We believe that a healthy planet is the foundation of a prosperous society.",
    "Biodiversity refers to the variety of living organisms in a given ecosystem.",
    "Global demand for lithium is expected to grow rapidly as electric vehicles become more common.",
    "Sustainability is at the heart of everything we do at Halvorsen.",
    "Governments around the world are introducing stricter rules on packaging waste.",
    "Scope 3 emissions are indirect emissions that occur in a company's value chain.",
    "Our ambition is to be a force for good for people and the planet.",
    "This section describes how we manage environmental risks across our business.",
    "Further details on our emissions methodology can be found in the appendix.",
    "Renewable energy can help companies reduce their exposure to volatile fuel prices.",
    "Many of the solutions needed to reach net zero are not yet available at commercial scale.",
    "We are on a journey and recognise that there is still much more to do.",
    "Customers increasingly expect the brands they buy from to act responsibly.",
    "How can we reduce the footprint of our products further?",
    "The cement industry accounts for around 8% of global carbon dioxide emissions.",
    "Protecting the environment is a shared responsibility of business, government and citizens.",
    "We want to inspire our employees to make greener choices in their daily lives.",
    "Carbon offsets are credits that represent the reduction or removal of one tonne of carbon dioxide.",
    "Our people are our greatest asset and we are proud of their passion.",
)

#: (sentence, label) in one list.
LABELLED = tuple((text, 1) for text in CLAIMS) + tuple((text, 0) for text in NON_CLAIMS)
