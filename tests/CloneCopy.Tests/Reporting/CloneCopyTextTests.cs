using System.Globalization;
using System.Linq;
using System.Reflection;
using System.Resources;
using Xunit;

namespace CloneCopy.Tests.Reporting;

/// <summary>CloneCopy's own texts live in Messages/CloneCopyTexts.resx: every property has its entry, every entry its property.</summary>
public sealed class CloneCopyTextTests
{
    [Fact]
    public void Every_text_property_reads_its_own_resource_entry_and_no_entry_is_unused()
    {
        PropertyInfo[] properties = typeof(CloneCopyText).GetProperties(BindingFlags.Public | BindingFlags.Static);
        var resources = new ResourceManager("CloneCopy.Messages.CloneCopyTexts", typeof(CloneCopyText).Assembly);
        string[] entries = resources.GetResourceSet(CultureInfo.InvariantCulture, createIfNotExists: true, tryParents: true)!
            .Cast<System.Collections.DictionaryEntry>().Select(e => (string)e.Key).OrderBy(k => k, System.StringComparer.Ordinal).ToArray();

        Assert.Equal(entries, properties.Select(p => p.Name).OrderBy(n => n, System.StringComparer.Ordinal).ToArray());
        Assert.All(properties, p => Assert.Equal(resources.GetString(p.Name, CultureInfo.InvariantCulture), (string)p.GetValue(null)!));
    }
}
