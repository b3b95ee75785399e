"""Factur-X (docs/decisions.md 54): a business customer's invoice or credit note is a PDF/A-3 carrying its data as
Cross Industry Invoice XML (profile BASIC), so the customer's software reads it without retyping.

The XML is written here from the document's row, with the same figures the PDF prints (invoices/vat.py), so the two
always agree; the `factur-x` library checks it against its profile's XSD, embeds it as `factur-x.xml` and writes the
XMP metadata PDF/A asks for. The fonts are embedded already (studio/pdf.py); the sRGB output intent PDF/A also asks
for is added here (Pillow's built-in sRGB profile)."""

import io
import re
from decimal import Decimal

import facturx
from django.utils import timezone
from lxml import etree
from PIL import ImageCms
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject, NumberObject, TextStringObject

from .models import Invoice
from .vat import VatStatus, excl_vat

LEVEL = "basic"
GUIDELINE = "urn:cen.eu:en16931:2017#compliant#urn:factur-x.eu:1p0:basic"
NS = {
    "rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    "ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
    "qdt": "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
    "udt": "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
}
INVOICE_TYPE, CREDIT_NOTE_TYPE = "380", "381"
# UNTDID 5305: S standard rate, E exempt (the franchise en base is an exemption too, with its own reason).
CATEGORY = {VatStatus.TAXABLE: "S", VatStatus.EXEMPT: "E", VatStatus.FRANCHISE: "E"}
UNIT = "C62"  # one
PAYMENT_TERMS = "Facture réglée à la commande."


def _el(parent, tag: str, text=None, **attributes):
    prefix, name = tag.split(":")
    element = etree.SubElement(parent, f"{{{NS[prefix]}}}{name}", **attributes)
    if text is not None:
        element.text = str(text)
    return element


def _amount(value: Decimal) -> str:
    return f"{Decimal(value):.2f}"


def _siren(siret: str) -> str:
    return re.sub(r"\D", "", siret)[:9]


def _party(parent, tag: str, *, name: str, siren: str, address: str, vat_number: str):
    party = _el(parent, tag)
    _el(party, "ram:Name", name)
    if siren:
        _el(_el(party, "ram:SpecifiedLegalOrganization"), "ram:ID", siren, schemeID="0002")
    postal = _el(party, "ram:PostalTradeAddress")
    if address:
        _el(postal, "ram:LineOne", address[:255])
    _el(postal, "ram:CountryID", "FR")
    if vat_number:
        _el(_el(party, "ram:SpecifiedTaxRegistration"), "ram:ID", vat_number, schemeID="VA")


def _tax(parent, tag: str, invoice: Invoice, *, calculated=None, basis=None):
    tax = _el(parent, tag)
    if calculated is not None:
        _el(tax, "ram:CalculatedAmount", _amount(calculated))
    _el(tax, "ram:TypeCode", "VAT")
    if calculated is not None and invoice.vat_status != VatStatus.TAXABLE:
        _el(tax, "ram:ExemptionReason", invoice.seller_vat_note or "Exonération de TVA")
    if basis is not None:
        _el(tax, "ram:BasisAmount", _amount(basis))
    _el(tax, "ram:CategoryCode", CATEGORY[invoice.vat_status])
    _el(tax, "ram:RateApplicablePercent", _amount(invoice.vat_rate))
    return tax


def invoice_cii_xml(invoice: Invoice) -> bytes:
    """The document as CII XML, profile BASIC: one line, the discount as a document allowance, paid in full."""
    root = etree.Element(f"{{{NS['rsm']}}}CrossIndustryInvoice", nsmap=NS)
    context = _el(root, "rsm:ExchangedDocumentContext")
    _el(_el(context, "ram:GuidelineSpecifiedDocumentContextParameter"), "ram:ID", GUIDELINE)
    document = _el(root, "rsm:ExchangedDocument")
    _el(document, "ram:ID", invoice.number)
    _el(document, "ram:TypeCode", CREDIT_NOTE_TYPE if invoice.is_credit_note else INVOICE_TYPE)
    issued = _el(document, "ram:IssueDateTime")
    _el(issued, "udt:DateTimeString", f"{timezone.localtime(invoice.issued_at):%Y%m%d}", format="102")

    transaction = _el(root, "rsm:SupplyChainTradeTransaction")
    gross = invoice.unit_amount * invoice.quantity
    line_excl = excl_vat(gross, invoice.vat_rate)
    item = _el(transaction, "ram:IncludedSupplyChainTradeLineItem")
    _el(_el(item, "ram:AssociatedDocumentLineDocument"), "ram:LineID", "1")
    _el(_el(item, "ram:SpecifiedTradeProduct"), "ram:Name", invoice.description)
    price = _el(_el(item, "ram:SpecifiedLineTradeAgreement"), "ram:NetPriceProductTradePrice")
    _el(price, "ram:ChargeAmount", f"{(line_excl / invoice.quantity).quantize(Decimal('0.0001'))}")
    _el(_el(item, "ram:SpecifiedLineTradeDelivery"), "ram:BilledQuantity", str(invoice.quantity), unitCode=UNIT)
    line_settlement = _el(item, "ram:SpecifiedLineTradeSettlement")
    _tax(line_settlement, "ram:ApplicableTradeTax", invoice)
    summation = _el(line_settlement, "ram:SpecifiedTradeSettlementLineMonetarySummation")
    _el(summation, "ram:LineTotalAmount", _amount(line_excl))

    agreement = _el(transaction, "ram:ApplicableHeaderTradeAgreement")
    _party(
        agreement,
        "ram:SellerTradeParty",
        name=invoice.seller_name,
        siren=_siren(invoice.seller_siret),
        address=invoice.seller_address,
        vat_number=invoice.seller_vat_number,
    )
    _party(
        agreement,
        "ram:BuyerTradeParty",
        name=invoice.customer_company_name or invoice.customer_name,
        siren=invoice.customer_siren,
        address=invoice.customer_address,
        vat_number=invoice.customer_vat_number,
    )
    _el(transaction, "ram:ApplicableHeaderTradeDelivery")

    settlement = _el(transaction, "ram:ApplicableHeaderTradeSettlement")
    _el(settlement, "ram:InvoiceCurrencyCode", invoice.currency)
    _tax(settlement, "ram:ApplicableTradeTax", invoice, calculated=invoice.vat_amount, basis=invoice.total_excl_vat)
    allowance_excl = line_excl - invoice.total_excl_vat
    if invoice.discount_amount:
        allowance = _el(settlement, "ram:SpecifiedTradeAllowanceCharge")
        _el(_el(allowance, "ram:ChargeIndicator"), "udt:Indicator", "false")
        _el(allowance, "ram:ActualAmount", _amount(allowance_excl))
        _el(allowance, "ram:Reason", invoice.discount_label or "Remise")
        _tax(allowance, "ram:CategoryTradeTax", invoice)
    _el(_el(settlement, "ram:SpecifiedTradePaymentTerms"), "ram:Description", PAYMENT_TERMS)
    totals = _el(settlement, "ram:SpecifiedTradeSettlementHeaderMonetarySummation")
    _el(totals, "ram:LineTotalAmount", _amount(line_excl))
    if invoice.discount_amount:
        _el(totals, "ram:AllowanceTotalAmount", _amount(allowance_excl))
    _el(totals, "ram:TaxBasisTotalAmount", _amount(invoice.total_excl_vat))
    _el(totals, "ram:TaxTotalAmount", _amount(invoice.vat_amount), currencyID=invoice.currency)
    _el(totals, "ram:GrandTotalAmount", _amount(invoice.total_amount))
    _el(totals, "ram:TotalPrepaidAmount", _amount(invoice.total_amount))
    _el(totals, "ram:DuePayableAmount", _amount(0))
    if invoice.is_credit_note and invoice.credited_invoice_id:
        referenced = _el(settlement, "ram:InvoiceReferencedDocument")
        _el(referenced, "ram:IssuerAssignedID", invoice.credited_invoice.number)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def _with_output_intent(pdf: bytes) -> bytes:
    """The PDF with an sRGB output intent, which PDF/A asks for to know the colours."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    profile = DecodedStreamObject()
    profile.set_data(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    profile[NameObject("/N")] = NumberObject(3)
    intent = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/OutputIntent"),
            NameObject("/S"): NameObject("/GTS_PDFA1"),
            NameObject("/OutputConditionIdentifier"): TextStringObject("sRGB"),
            NameObject("/Info"): TextStringObject("sRGB IEC61966-2.1"),
            NameObject("/DestOutputProfile"): writer._add_object(profile),
        }
    )
    writer._root_object[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def facturx_pdf(invoice: Invoice, pdf: bytes) -> bytes:
    """The invoice's PDF as Factur-X: its XML checked against the profile's XSD (an error raises) and embedded."""
    return facturx.generate_from_binary(
        _with_output_intent(pdf),
        invoice_cii_xml(invoice),
        flavor="factur-x",
        level=LEVEL,
        check_xsd=True,
        pdf_metadata={
            "author": invoice.seller_name,
            "keywords": "Factur-X",
            "title": f"{'Avoir' if invoice.is_credit_note else 'Facture'} {invoice.number}",
            "subject": f"{'Avoir' if invoice.is_credit_note else 'Facture'} n° {invoice.number}",
        },
        lang="fr-FR",
    )
